// The edit menu of spec section 2 and the profile-completion walk (spec section 1): which section
// each menu entry opens, which of them a complete profile needs, and in which order they are asked.
import type { RequiredField } from '../schemas/profile-edit';

/**
 * Menu entries in the spec's order. `form`: a section edited on /edit/{id}; `link`: an entry that opens
 * a screen of its own; `admin`: shown to admins only (Warn, Directory Admin).
 */
export const EDIT_MENU = [
  { id: 'media', kind: 'link' },
  { id: 'services', kind: 'form' },
  { id: 'load', kind: 'link' },
  { id: 'warn', kind: 'admin' },
  { id: 'auto_topup', kind: 'link' },
  { id: 'dominatrix', kind: 'form' },
  { id: 'comments', kind: 'form' },
  { id: 'about', kind: 'form' },
  { id: 'rates', kind: 'form' },
  { id: 'location', kind: 'form' },
  { id: 'directory_admin', kind: 'admin' },
  { id: 'personality', kind: 'form' },
  { id: 'language', kind: 'form' },
  { id: 'gender', kind: 'form' },
  { id: 'phone', kind: 'form' },
  { id: 'ad_status', kind: 'form' },
  { id: 'links', kind: 'form' },
  { id: 'screen_name', kind: 'form' },
  { id: 'heading', kind: 'form' },
  { id: 'sexuality', kind: 'form' },
  { id: 'verify', kind: 'link' },
  { id: 'availability', kind: 'form' },
  { id: 'account', kind: 'link' },
] as const;
export type MenuEntry = (typeof EDIT_MENU)[number]['id'];

/**
 * The menu as it is shown (issue 23, item 8): the spec's 23 entries in five groups an advertiser looks
 * for (her ad, her pictures, where she is listed, her money, her account), the spec's order kept inside
 * each group; the admin's two entries in a group of their own, shown to admins only (decision 0221).
 */
export const EDIT_MENU_GROUPS = [
  {
    id: 'profile',
    entries: [
      'screen_name',
      'heading',
      'about',
      'services',
      'dominatrix',
      'comments',
      'rates',
      'personality',
      'language',
      'gender',
      'phone',
      'ad_status',
      'links',
      'sexuality',
      'availability',
    ],
  },
  { id: 'media', entries: ['media', 'verify'] },
  { id: 'location', entries: ['location'] },
  { id: 'money', entries: ['load', 'auto_topup'] },
  { id: 'account', entries: ['account'] },
  { id: 'admin', entries: ['warn', 'directory_admin'] },
] as const satisfies ReadonlyArray<{ id: string; entries: readonly MenuEntry[] }>;
export type MenuGroup = (typeof EDIT_MENU_GROUPS)[number]['id'];
export type FormSection = Extract<(typeof EDIT_MENU)[number], { kind: 'form' }>['id'];

/** Where a link entry goes; null for a form section and for the admin entries, which open the admin modal. */
export function menuLink(entry: MenuEntry, id: number): string | null {
  switch (entry) {
    case 'media':
      return `/edit/media/${id}`;
    case 'load':
      return `/edit/load/${id}`;
    case 'auto_topup':
      return `/edit/auto-topup/${id}`;
    case 'verify':
      return `/edit/verify/${id}`;
    case 'account':
      return `/edit/account/${id}`;
    default:
      return null;
  }
}

/** The section that fills each required item of a complete profile (profile-derive). */
export const SECTION_OF_REQUIRED: Record<RequiredField, MenuEntry> = {
  screenName: 'screen_name',
  heading: 'heading',
  gender: 'gender',
  cityId: 'location',
  phone: 'phone',
  about: 'about',
  avatar: 'media',
};

/**
 * `?edit=<section>`: a menu entry, or one of the names the profile view links with (EDIT_SECTIONS of
 * the profile view: "details" is the gender, sexuality and personality block).
 */
export function sectionFromQuery(value: string | null): MenuEntry | null {
  if (!value) return null;
  const alias: Record<string, MenuEntry> = { details: 'gender', auto: 'auto_topup', 'auto-topup': 'auto_topup' };
  const v = alias[value] ?? value;
  return EDIT_MENU.some((e) => e.id === v) ? (v as MenuEntry) : null;
}
