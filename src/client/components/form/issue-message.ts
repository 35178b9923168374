// A Zod issue as a translated sentence. The shared schemas carry catalogue keys as messages (messageText)
// for the server's 422 bodies; the browser shows the same rule in the page's language, chosen from the
// issue itself, or from that key.
import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { parseMessageText } from '#shared/api/messages.ts';
import { MIN_AGE } from '#shared/constants.ts';
import { ageOn, isCalendarDate } from '#shared/rules/date-of-birth.ts';

export type Issue = z.core.$ZodIssue;

/** Messages of a pattern (regex) rule, by field name: Zod only says "invalid format". */
const PATTERN_MESSAGES: Record<string, string> = {
  username: 'auth:errors.usernameChars',
  mobile: 'auth:errors.mobile',
  pin: 'auth:errors.pin',
  date_of_birth: 'auth:errors.dateFormat',
};

/** One translated sentence for a Zod issue of a field labelled `label`. */
export function issueMessage(t: TFunction, issue: Issue, field: string, label: string, value: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return t('auth:errors.blank', { label });
    case 'too_small':
      return Number(issue.minimum) <= 1
        ? t('auth:errors.blank', { label })
        : t('auth:errors.tooShort', { label, count: Number(issue.minimum) });
    case 'too_big':
      return t('auth:errors.tooLong', { label, count: Number(issue.maximum) });
    case 'invalid_format':
      if (issue.format === 'email') return t('auth:errors.email');
      return PATTERN_MESSAGES[field] ? t(PATTERN_MESSAGES[field]) : t('auth:errors.format', { label });
    case 'invalid_value':
      if (field === 'terms') return t('auth:errors.terms');
      // Nothing chosen (a radio group or select left empty) is a blank, not a wrong value.
      return value === undefined || value === null || value === ''
        ? t('auth:errors.blank', { label })
        : t('auth:errors.format', { label });
    case 'custom':
      // A rule of a shared schema that names its own translation (`params: { i18n: 'ns:key' }`).
      if (typeof issue.params?.i18n === 'string') {
        const { i18n, ...values } = issue.params as { i18n: string } & Record<string, unknown>;
        return t(i18n, { ...values, label });
      }
      if (field === 'date_of_birth') {
        const text = typeof value === 'string' ? value : '';
        return isCalendarDate(text) && ageOn(text, new Date()) < MIN_AGE
          ? t('auth:errors.tooYoung', { age: MIN_AGE })
          : t('auth:errors.dateInvalid', { label });
      }
      return keyed(t, issue.message, label);
    default:
      return keyed(t, issue.message, label);
  }
}

/** A schema's own message: a catalogue key with its values (messageText), said with this form's label. */
function keyed(t: TFunction, text: string, label: string): string {
  const message = parseMessageText(text);
  if (!message) return text;
  const key = message.key.includes(':') ? message.key : `messages:${message.key}`;
  return String(t(key, { ...message.params, label }));
}
