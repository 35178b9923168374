// A Zod issue as a translated sentence. Every issue of a shared schema carries a catalogue key with its
// values as its message (messageText): the schema's own rule, or the key #shared/api/zod-messages.ts gives
// each kind of check. The browser says that key in the page's language with the form's label, so a form
// and the server's 422 answer word a rule the same way.
import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { parseMessageText } from '#shared/api/messages.ts';
import { ZOD_KEYS } from '#shared/api/zod-messages.ts';

export type Issue = z.core.$ZodIssue;

/** One translated sentence for a Zod issue of a field labelled `label`. */
export function issueMessage(t: TFunction, issue: Issue, label: string, value: unknown): string {
  // Nothing chosen (a radio group or select left empty) is a blank, not a wrong value.
  if (issue.code === 'invalid_value' && (value === undefined || value === null || value === ''))
    return t(ZOD_KEYS.blank, { label });
  // A rule of a shared schema that names its own translation (`params: { i18n: 'ns:key' }`).
  if (issue.code === 'custom' && typeof issue.params?.i18n === 'string') {
    const { i18n, ...values } = issue.params as { i18n: string } & Record<string, unknown>;
    return t(i18n, { ...values, label });
  }
  const message = parseMessageText(issue.message);
  if (!message) return issue.message;
  const key = message.key.includes(':') ? message.key : `messages:${message.key}`;
  return String(t(key, { ...message.params, label }));
}
