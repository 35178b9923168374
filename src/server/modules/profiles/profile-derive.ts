// Pure rules derived from a profile row, shared by the profile service, the admin tools and the seed:
// when a profile counts as complete, when it is listed, and the text the search matches against.

/**
 * Fields a profile needs before it can appear in the directory. The spec redirects every signed-in
 * user to the edit page until the profile is complete, so this list is also what that page asks for.
 *
 * Decision: an avatar is required as well. Every directory card is a photo, an item without one
 * would be an empty tile, and verification needs an avatar anyway (DESIGN.md). Rates, services,
 * availability and the area are optional: many advertisers publish them only on request.
 */
export const REQUIRED_PROFILE_FIELDS = ['screenName', 'heading', 'gender', 'cityId', 'phone', 'about'] as const;
export type RequiredProfileField = (typeof REQUIRED_PROFILE_FIELDS)[number] | 'avatar';

export interface CompletenessInput {
  screenName?: string | null;
  heading?: string | null;
  gender?: string | null;
  cityId?: number | null;
  phone?: string | null;
  about?: string | null;
}

const present = (v: unknown) => (typeof v === 'string' ? v.trim().length > 0 : v !== null && v !== undefined);

/** What is still missing, in the order of the edit form (empty when complete). */
export function missingFields(profile: CompletenessInput, hasAvatar: boolean): RequiredProfileField[] {
  const missing: RequiredProfileField[] = REQUIRED_PROFILE_FIELDS.filter((f) => !present(profile[f]));
  if (!hasAvatar) missing.push('avatar');
  return missing;
}

export function isComplete(profile: CompletenessInput, hasAvatar: boolean): boolean {
  return missingFields(profile, hasAvatar).length === 0;
}

export interface ListedInput {
  complete: boolean;
  adStatus: 'visible' | 'hidden' | string;
  flagged: boolean;
  accountStatus: 'active' | 'suspended' | 'deleted' | string;
}

/** DESIGN.md: public when complete, ad status visible, not flagged and the account not suspended or deleted. */
export function isListed({ complete, adStatus, flagged, accountStatus }: ListedInput): boolean {
  return complete && adStatus === 'visible' && !flagged && accountStatus === 'active';
}

// What PostgreSQL's unaccent() does beyond stripping combining marks (ligatures, stroked letters,
// typographic quotes), taken from its unaccent.rules. Checked against unaccent(lower(x)) in the tests.
// prettier-ignore
const FOLD: Record<string, string> = {
  'ß': 'ss', 'æ': 'ae', 'œ': 'oe', 'ø': 'o', 'ł': 'l', 'đ': 'd', 'ð': 'd', 'ı': 'i', 'ħ': 'h', 'þ': 'th',
  'ŋ': 'n', 'ŧ': 't', 'ĸ': 'q', 'ĳ': 'ij', 'ŀ': 'l', 'ŉ': "'n", 'ſ': 's', 'ǆ': 'dz', 'ǅ': 'dz', 'ǉ': 'lj',
  'ǈ': 'lj', 'ǌ': 'nj', 'ǋ': 'nj',
  '‘': "'", '’': "'", 'ʼ': "'", '‚': "'", '“': '"', '”': '"', '„': '"', '«': '<<', '»': '>>',
  '–': '-', '—': '-', '…': '...', '©': '(C)', '®': '(R)', '×': '*', '÷': '/',
  // Left out on purpose: ª º ¼ ½ ¾, which unaccent.rules maps differently across PostgreSQL versions.
};
const FOLD_RE = new RegExp(`[${Object.keys(FOLD).join('')}]`, 'g');

/**
 * Lower-case and strip accents the way `unaccent(lower(x))` does in PostgreSQL, so text folded here
 * and a query folded in SQL (or here) meet. Letters of other scripts are kept as they are.
 */
export function foldText(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(FOLD_RE, (ch) => FOLD[ch])
      .normalize('NFD')
      // unaccent() knows accented Latin and Greek letters; Cyrillic й or Arabic vowel marks stay.
      .replace(/([a-z\u0370-\u03ff])[\u0300-\u036f]+/g, '$1')
      .normalize('NFC')
  );
}

export interface SearchTextInput {
  screenName?: string | null;
  heading?: string | null;
  cityName?: string | null;
  place?: string | null;
  /** Service codes (SERVICES); `dinner_date` is searchable as "dinner date". */
  services?: readonly string[] | null;
}

/** The `profiles.search_text` column: folded name, heading, city, area and services, one space apart. */
export function buildSearchText({ screenName, heading, cityName, place, services }: SearchTextInput): string {
  const parts = [screenName, heading, cityName, place, ...(services ?? []).map((s) => s.replace(/_/g, ' '))];
  return foldText(parts.filter((p): p is string => !!p && p.trim().length > 0).join(' '))
    .replace(/\s+/g, ' ')
    .trim();
}
