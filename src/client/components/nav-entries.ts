// The navigation menu of spec section 2, by role. Pure, so the role rules are unit-tested.
import { TOPUP_CART_PATH } from '#shared/constants.ts';
import type { CurrentUser, Role } from '#client/lib/app-data.ts';

export type NavKey =
  | 'worldwide'
  | 'female'
  | 'male'
  | 'trans'
  | 'dom'
  | 'feed'
  | 'bookmarks'
  | 'yourProfile'
  | 'editProfile'
  | 'topup'
  | 'accountSettings'
  | 'admin'
  | 'logout'
  | 'join'
  | 'login'
  | 'whatYouGet'
  | 'shop'
  | 'help';

export interface NavEntry {
  key: NavKey;
  /** i18n key in the common namespace. */
  label: string;
  /** Absent for actions (logout). */
  to?: string;
  group: 'browse' | 'account' | 'info';
}

const CATEGORY_ENTRIES = [
  ['female', 'female'],
  ['male', 'male'],
  ['trans', 'trans'],
  ['dom', 'dom'],
] as const;

/**
 * @param country slug of the country being browsed (or last browsed); category links stay in it.
 *   Without one they lead to the country list, which keeps the category for its links.
 */
export function navEntries(role: Role, user: CurrentUser | null, country: string | null): NavEntry[] {
  const entries: NavEntry[] = [{ key: 'worldwide', label: 'nav.worldwide', to: '/countries', group: 'browse' }];
  for (const [key, category] of CATEGORY_ENTRIES) {
    entries.push({
      key,
      label: `nav.${key}`,
      to: country ? `/${category}/${country}` : `/countries?category=${category}`,
      group: 'browse',
    });
  }
  entries.push({ key: 'feed', label: 'nav.feed', to: '/feed', group: 'browse' });
  entries.push({ key: 'bookmarks', label: 'nav.bookmarks', to: '/bookmarks', group: 'browse' });

  if (role === 'visitor' || !user) {
    entries.push({ key: 'join', label: 'nav.join', to: '/register', group: 'account' });
    entries.push({ key: 'login', label: 'nav.login', to: '/login', group: 'account' });
  } else {
    const id = user.user_id;
    entries.push({ key: 'yourProfile', label: 'nav.yourProfile', to: `/profile/${id}`, group: 'account' });
    entries.push({ key: 'editProfile', label: 'nav.editProfile', to: `/edit/${id}`, group: 'account' });
    entries.push({ key: 'topup', label: 'nav.topup', to: TOPUP_CART_PATH, group: 'account' });
    entries.push({ key: 'accountSettings', label: 'nav.accountSettings', to: `/edit/account/${id}`, group: 'account' });
    if (role === 'admin') entries.push({ key: 'admin', label: 'nav.admin', to: '/admin/overview', group: 'account' });
    entries.push({ key: 'logout', label: 'nav.logout', group: 'account' });
  }

  entries.push({ key: 'whatYouGet', label: 'nav.whatYouGet', to: '/what-you-get', group: 'info' });
  entries.push({ key: 'shop', label: 'nav.shop', to: '/shop', group: 'info' });
  entries.push({ key: 'help', label: 'nav.help', to: '/help', group: 'info' });
  return entries;
}
