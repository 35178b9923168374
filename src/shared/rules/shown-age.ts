// The age a profile shows (issue 27, item 2; docs/decisions/0321): computed from the date of birth given at
// registration on the app clock's UTC day, shown only while she turns it on; the date itself never leaves
// the server. "Age checked" once her ID verification matched it.
import { ageOn } from './date-of-birth.ts';

/**
 * Her ID verification checked the age: the admin verifies a photo ID against the avatar and the date of
 * birth given at registration, so a verified profile's shown age is a checked one.
 */
export const ageChecked = (verification: string | null) => verification === 'verified';

/** The age shown (null: she does not show it). `birthDate`: profiles.shown_birth_date. */
export function shownAge(birthDate: string | null, verification: string | null, now: Date) {
  return birthDate ? { years: ageOn(birthDate, now), checked: ageChecked(verification) } : null;
}
