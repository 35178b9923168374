// Entry of the lazy "checkout" section. Its screens are not built yet: each route shows a
// translated "coming soon" screen titled like the route.
import type { SectionProps } from '#client/app/sections.ts';
import { ComingSoon } from '#client/components/coming-soon.tsx';

export function CheckoutSection({ route }: SectionProps) {
  return <ComingSoon route={route} />;
}
