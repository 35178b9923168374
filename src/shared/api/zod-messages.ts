// Zod's own wording ("Too small: expected number to be >=1", "Invalid discriminator value...") never
// reaches people (issue 9.8). Every check without a message of its own gets a key of the `messages`
// catalogue with its values, written as one string (messageText); the server's error handler reads it
// back and translates it in the caller's language, the browser's forms say the same key
// (src/client/components/form/issue-message.ts). A schema's own message always wins over these, and is a
// messageText too (blankMessage, 'validation.slug'...).
import { z } from 'zod';
import { messageText, type MessageParams } from './messages.ts';

/** "screen_name" -> "Screen name", "tourFrom" -> "Tour from". */
export function humanize(field: string): string {
  const s = field
    .replace(/[_.-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return s ? s[0].toUpperCase() + s.slice(1) : 'Value';
}

/**
 * The sentence of each kind of issue: a key of the `messages` catalogue (`validation.*`, in every
 * language). {{label}} is the field's name as people read it; {{n}} a limit.
 */
export const ZOD_KEYS = {
  blank: 'auth:errors.blank',
  number: 'validation.number',
  whole: 'validation.whole',
  text: 'validation.text',
  boolean: 'validation.boolean',
  list: 'validation.list',
  group: 'validation.group',
  invalid: 'validation.invalid',
  choice: 'validation.choice',
  format: 'auth:errors.format',
  email: 'auth:errors.email',
  atLeast: 'validation.atLeast',
  moreThan: 'validation.moreThan',
  atMost: 'validation.atMost',
  lessThan: 'validation.lessThan',
  minLength: 'validation.minLength',
  maxLength: 'validation.maxLength',
  minItems: 'validation.minItems',
  maxItems: 'validation.maxItems',
  unknownField: 'validation.unknownField',
  unreadable: 'errors.unreadable',
} as const;

type Issue = z.core.$ZodRawIssue;

export function zodIssueMessage(issue: Issue): string {
  const path = (issue.path ?? []).filter((p): p is string => typeof p === 'string');
  const atRoot = path.length === 0;
  const label = humanize(path.at(-1) ?? '');
  const say = (key: string, values: MessageParams = {}) => messageText(key, { label, ...values });
  const T = ZOD_KEYS;
  switch (issue.code) {
    case 'invalid_type': {
      if (atRoot) return T.unreadable;
      if (issue.input === undefined || issue.input === null) return say(T.blank);
      const expected = String(issue.expected);
      if (expected === 'number' || expected === 'bigint' || expected === 'int') return say(T.number);
      if (expected === 'string') return say(T.text);
      if (expected === 'boolean') return say(T.boolean);
      if (expected === 'array' || expected === 'tuple' || expected === 'set') return say(T.list);
      if (expected === 'object' || expected === 'record' || expected === 'map') return say(T.group);
      return say(T.invalid);
    }
    case 'too_small': {
      const n = Number(issue.minimum);
      if (issue.origin === 'string') return n <= 1 ? say(T.blank) : say(T.minLength, { n });
      if (issue.origin === 'array' || issue.origin === 'set') return say(T.minItems, { n });
      return say(issue.inclusive === false ? T.moreThan : T.atLeast, { n });
    }
    case 'too_big': {
      const n = Number(issue.maximum);
      if (issue.origin === 'string') return say(T.maxLength, { n });
      if (issue.origin === 'array' || issue.origin === 'set') return say(T.maxItems, { n });
      return say(issue.inclusive === false ? T.lessThan : T.atMost, { n });
    }
    case 'invalid_value':
    case 'invalid_union':
      return atRoot ? T.unreadable : say(issue.code === 'invalid_value' ? T.choice : T.invalid);
    case 'invalid_format':
      return issue.format === 'email' ? T.email : say(T.format);
    case 'unrecognized_keys':
      return messageText(T.unknownField, { field: issue.keys.join('", "') });
    case 'not_multiple_of':
      return say(issue.origin === 'number' ? T.whole : T.invalid);
    default:
      return atRoot ? T.unreadable : say(T.invalid);
  }
}

z.config({ customError: zodIssueMessage });
