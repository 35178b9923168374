// What counts as a phone number (the profile's Phone, and the messengers that reach a number), for the
// browser form and the server alike (docs/decisions/0311). People type numbers the way they read them:
// "+44 7700 900123", "0044 (0)20 7946-0018", "+1 (212) 555.0142". The rule keeps the digits, reads a
// leading 00 as +, and asks libphonenumber's full ("max") metadata whether the number is one its
// country uses. What is kept is one form, E.164 ("+442079460018"); it is shown grouped (formatPhone).
// A refusal says why, naming the country the calling code belongs to. Pure: no DOM, no database.
import { parsePhoneNumberFromString, validatePhoneNumberLength } from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/max/metadata';

/** Longer than anything a person types for one number (spaces and brackets included). */
export const PHONE_MAX = 40;

/** Why a number is refused; `country` is an ISO 3166 code, `code` the calling code without "+". */
export type PhoneRefusal =
  | { reason: 'characters' }
  | { reason: 'countryCode' }
  | { reason: 'unknownCode'; code: string }
  | { reason: 'tooShort' | 'tooLong' | 'notInUse'; code: string; country: string };

export type PhoneCheck = { ok: true; e164: string; country: string | null } | ({ ok: false } & PhoneRefusal);

/** What may stand between the digits: spaces of any width, brackets, dots, slashes and dashes. */
const SEPARATORS = /[\s\u00a0\u2000-\u200b\u202f\u3000().\u00b7/\-\u2010-\u2015\u2212]/g;

const callingCodes = metadata.country_calling_codes as Record<string, string[]>;

/** The country a calling code is first of ("44": GB before GG, IM, JE; "1": US). */
function mainCountry(code: string): string {
  return callingCodes[code]?.[0] ?? '001';
}

/** The calling code the digits after + start with (1 to 3 digits), or null when none is one. */
function callingCodeOf(digits: string): string | null {
  for (let n = 1; n <= 3 && n <= digits.length; n += 1) if (callingCodes[digits.slice(0, n)]) return digits.slice(0, n);
  return null;
}

/** The digits with a leading +, or a refusal for anything that is not a written phone number. */
function compact(value: string): string | PhoneRefusal {
  const stripped = value.trim().replace(SEPARATORS, '');
  if (!/^\+?\d*$/.test(stripped)) return { reason: 'characters' };
  // "+0044" is a 00 written after a +: one of the two is enough.
  if (stripped.startsWith('+00') || stripped.startsWith('00')) return `+${stripped.replace(/^\+?00/, '')}`;
  if (stripped.startsWith('+')) return stripped;
  return { reason: 'countryCode' };
}

/**
 * The number as it is kept (E.164) and its country, or why it is refused: letters or other signs,
 * no country code (neither + nor 00), a calling code no country has, a length its country never
 * uses, or a number its country does not use ("+44 7700 900123": Ofcom keeps 07700 900xxx for films).
 */
export function checkPhone(value: string): PhoneCheck {
  const compacted = compact(value);
  if (typeof compacted !== 'string') return { ok: false, ...compacted };
  const digits = compacted.slice(1);
  if (!digits || digits.startsWith('0')) return { ok: false, reason: 'countryCode' };
  const code = callingCodeOf(digits);
  if (!code) return { ok: false, reason: 'unknownCode', code: digits.slice(0, 3) };
  const length = validatePhoneNumberLength(compacted);
  if (length === 'TOO_SHORT' || length === 'NOT_A_NUMBER')
    return { ok: false, reason: 'tooShort', code, country: mainCountry(code) };
  if (length === 'TOO_LONG') return { ok: false, reason: 'tooLong', code, country: mainCountry(code) };
  const phone = parsePhoneNumberFromString(compacted);
  if (!phone) return { ok: false, reason: 'tooShort', code, country: mainCountry(code) };
  if (!phone.isValid()) {
    // The countries whose plans the number would fit by its length and prefix; the calling code's own
    // country when none does (a +1 number of no area code is refused as the United States').
    const country = phone.getPossibleCountries()[0] ?? mainCountry(code);
    return { ok: false, reason: 'notInUse', code, country };
  }
  return { ok: true, e164: phone.number, country: phone.country ?? null };
}

/** The number as kept (E.164), or null when it is refused. */
export function normalizePhone(value: string): string | null {
  const checked = checkPhone(value);
  return checked.ok ? checked.e164 : null;
}

/** A kept number grouped the way its country writes it ("+44 20 7946 0018"); anything else as it is. */
export function formatPhone(value: string): string {
  const checked = checkPhone(value);
  if (!checked.ok) return value;
  return parsePhoneNumberFromString(checked.e164)?.formatInternational() ?? checked.e164;
}

/** The catalogue key (edit namespace) of each refusal; its values are the refusal's code and country. */
export const PHONE_REFUSAL_KEYS = {
  characters: 'edit:errors.phoneCharacters',
  countryCode: 'edit:errors.phoneCountryCode',
  unknownCode: 'edit:errors.phoneUnknownCode',
  tooShort: 'edit:errors.phoneTooShort',
  tooLong: 'edit:errors.phoneTooLong',
  notInUse: 'edit:errors.phoneNotInUse',
} as const satisfies Record<PhoneRefusal['reason'], string>;

/** A refusal as a catalogue key and its values ({{label}} is the field's name, added by the caller). */
export function phoneRefusalMessage(refusal: PhoneRefusal & { ok?: false }): {
  key: string;
  values: Record<string, string>;
} {
  const { reason, ok: _ok, ...values } = refusal;
  return { key: PHONE_REFUSAL_KEYS[reason], values };
}
