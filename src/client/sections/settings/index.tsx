// Entry of the lazy "settings" section: the account screen /edit/account/{id} (spec section 2,
// "Account items: email, mobile, password, username, delete account"; docs/decisions/0100).
import type { SectionProps } from '#client/lib/route-paths.ts';
import { ComingSoon } from '#client/components/coming-soon.tsx';
import { AccountPage } from '#client/features/account/account-page.tsx';
import '#client/features/account/settings.css';

export function SettingsSection({ route }: SectionProps) {
  switch (route) {
    case 'edit-account':
      return <AccountPage />;
    default:
      return <ComingSoon route={route} />;
  }
}
