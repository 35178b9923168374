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
export type FormSection = Extract<(typeof EDIT_MENU)[number], { kind: 'form' }>['id'];
export const FORM_SECTIONS = EDIT_MENU.filter((e) => e.kind === 'form').map((e) => e.id) as FormSection[];

/** Where a link entry goes, for the profile `id`. */
export function menuLink(entry: MenuEntry, id: number, screenName?: string | null): string | null {
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
    case 'warn':
    case 'directory_admin':
      return `/admin/users?q=${encodeURIComponent(screenName ?? String(id))}`;
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
