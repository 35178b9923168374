import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '#shared/schemas/auth.ts';
import { completionPath, needsCompletion } from './completion.ts';

const user = (over: Partial<CurrentUser>): CurrentUser =>
  ({
    user_id: 7,
    username: 'ann',
    role: 'advertiser',
    language: 'en',
    complete: false,
    verify: 'none',
    email_verified: true,
    mobile_verified: false,
    ...over,
  }) as CurrentUser;

describe('needsCompletion (spec section 1)', () => {
  it('sends an advertiser with an incomplete profile to the edit page', () => {
    expect(needsCompletion(user({}))).toBe(true);
  });
  it('leaves complete profiles, pending verifications, visitors and admins alone', () => {
    expect(needsCompletion(user({ complete: true }))).toBe(false);
    expect(needsCompletion(user({ verify: 'pending' }))).toBe(false);
    expect(needsCompletion(null)).toBe(false);
    expect(needsCompletion(user({ role: 'admin' }))).toBe(false);
  });
  it('answers sign-in with the completion path only when it is needed', () => {
    expect(completionPath(user({}))).toBe('/edit/7?action=complete');
    expect(completionPath(user({ role: 'admin' }))).toBe('/');
    expect(completionPath(user({ complete: true }))).toBe('/');
  });
});
