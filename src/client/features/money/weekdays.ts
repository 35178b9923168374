// Weekdays as the auto-topup counts them (ISO: 1 = Monday ... 7 = Sunday), named by Intl in the reader's
// language, and instants shown in the profile city's zone.
import { intlLocale } from '#client/lib/format.ts';

export const ISO_WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

/** 1 -> "Monday" / "Mon" ("Montag", "lunes"). 2024-01-01 was a Monday. */
export function weekdayName(day: number, language: string, width: 'long' | 'short' = 'long'): string {
  return new Intl.DateTimeFormat(intlLocale(language), { weekday: width, timeZone: 'UTC' }).format(
    new Date(Date.UTC(2024, 0, day)),
  );
}

/** An instant's weekday in a zone ("Thursday"). */
export function weekdayIn(iso: string, zone: string, language: string): string {
  return new Intl.DateTimeFormat(intlLocale(language), { weekday: 'long', timeZone: zone }).format(new Date(iso));
}

/** An instant as date and time in a zone ("Thu, 12 Dec, 08:30"). */
export function dateTimeIn(iso: string, zone: string, language: string): string {
  return new Intl.DateTimeFormat(intlLocale(language), {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: zone,
  }).format(new Date(iso));
}

/** The zone's name as people say it ("Central European Standard Time"), else its IANA id. */
export function zoneName(zone: string, language: string): string {
  try {
    const part = new Intl.DateTimeFormat(intlLocale(language), { timeZone: zone, timeZoneName: 'long' })
      .formatToParts(new Date())
      .find((p) => p.type === 'timeZoneName');
    return part?.value ?? zone;
  } catch {
    return zone;
  }
}
