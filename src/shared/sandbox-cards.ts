// The test cards of the built-in sandbox card provider (DESIGN.md "Money"), as a real acquirer publishes
// its own: the sandbox behaves by them, and the checkout lists them next to its "sandbox" marker.
export type SandboxCardBehaviour = 'succeed' | 'decline' | 'challenge';

export const SANDBOX_TEST_CARDS: ReadonlyArray<{ number: string; behaviour: SandboxCardBehaviour }> = [
  { number: '4242424242424242', behaviour: 'succeed' },
  { number: '4000000000003220', behaviour: 'challenge' },
  { number: '4000000000000002', behaviour: 'decline' },
];
