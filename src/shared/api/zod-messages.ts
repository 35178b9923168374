// Zod's own wording ("Too small: expected number to be >=1", "Invalid discriminator value...") never
// reaches people (issue 9.8). Every check without a message of its own gets one of these sentences, on
// the server and in the browser's forms alike; the server translates them by the same templates
// (src/server/lib/messages/<lang>.json). A schema's own message always wins over these.
import { z } from 'zod';

/** "screen_name" -> "Screen name", "tourFrom" -> "Tour from". */
export function humanize(field: string): string {
  const s = field
    .replace(/[_.-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return s ? s[0].toUpperCase() + s.slice(1) : 'Value';
}

/** The templates, English. {{label}} is the field's name as people read it. */
export const ZOD_TEMPLATES = {
  blank: "{{label}} can't be blank!",
  number: '{{label}} must be a number.',
  whole: '{{label}} must be a whole number.',
  text: '{{label}} must be text.',
  boolean: '{{label}} must be yes or no.',
  list: '{{label}} must be a list.',
  group: '{{label}} must be a group of fields.',
  invalid: '{{label}} is not valid.',
  choice: '{{label}} is not one of the choices offered.',
  format: '{{label}} is not in the right format.',
  email: 'Enter a valid email address.',
  atLeast: '{{label}} must be at least {{n}}.',
  moreThan: '{{label}} must be more than {{n}}.',
  atMost: '{{label}} may be at most {{n}}.',
  lessThan: '{{label}} must be less than {{n}}.',
  minLength: '{{label}} must be at least {{n}} characters long.',
  maxLength: '{{label}} may not be longer than {{n}} characters.',
  minItems: '{{label}} needs at least {{n}} entries.',
  maxItems: '{{label}} may have at most {{n}} entries.',
  unknownField: 'This form has no field "{{field}}".',
  unreadable: 'The request could not be read.',
} as const;

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_m, k: string) => String(values[k] ?? ''));

type Issue = z.core.$ZodRawIssue;

export function zodIssueMessage(issue: Issue): string {
  const path = (issue.path ?? []).filter((p): p is string => typeof p === 'string');
  const atRoot = path.length === 0;
  const label = humanize(path.at(-1) ?? '');
  const say = (template: string, values: Record<string, string | number> = {}) => fill(template, { label, ...values });
  const T = ZOD_TEMPLATES;
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
      return fill(T.unknownField, { field: issue.keys.join('", "') });
    case 'not_multiple_of':
      return say(issue.origin === 'number' ? T.whole : T.invalid);
    default:
      return atRoot ? T.unreadable : say(T.invalid);
  }
}

z.config({ customError: zodIssueMessage });
