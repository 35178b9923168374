// Issue 9.8 and issue 7.7: no message of Zod's own wording reaches people, and no English sentence travels
// through the code. Every field of every shared schema gets values of the wrong type (and out-of-range
// ones); each message that comes back is a key of our catalogues with the values it needs, a sentence in
// English, German and Spanish.
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseMessageText } from '#shared/api/messages.ts';
import { ZOD_KEYS, zodIssueMessage } from '#shared/api/zod-messages.ts';
import { FALLBACK_LANGUAGES, loadResources } from '#shared/i18n/index.ts';

const modules = import.meta.glob<Record<string, unknown>>(['./*.ts', '!./*.test.ts'], { eager: true });

const WRONG: unknown[] = [12345, 'not right', true, [], {}, null, -1, 2 ** 40, 1.5, '', 'x'.repeat(20_000), [1, 'a']];

const i18n = i18next.createInstance();
beforeAll(async () => {
  const resources = await loadResources();
  await i18n.init({
    resources,
    fallbackLng: FALLBACK_LANGUAGES,
    defaultNS: 'messages',
    ns: Object.keys(resources.en),
    interpolation: { escapeValue: false },
    returnNull: false,
  });
});

/** The sentence a message text stands for in `lng`, or why it is not one. */
function sentence(text: string, lng: string): string {
  const message = parseMessageText(text);
  if (!message) return `NOT A KEY: ${text}`;
  const key = message.key.includes(':') ? message.key : `messages:${message.key}`;
  if (!i18n.exists(key, { lng, fallbackLng: false })) return `MISSING in ${lng}: ${message.key}`;
  return i18n.t(key, { lng, ...message.params });
}

function objectSchemas() {
  const found: Array<[string, z.ZodObject]> = [];
  for (const [file, exports] of Object.entries(modules))
    for (const [name, value] of Object.entries(exports))
      if (value instanceof z.ZodObject) found.push([`${file.replace('./', '')}:${name}`, value]);
  return found;
}

describe('messages of the shared schemas', () => {
  const schemas = objectSchemas();

  it('finds the schemas', () => {
    expect(schemas.length).toBeGreaterThan(20);
  });

  it.each(schemas)('%s: a wrong value in any field gets a sentence of ours in every language', (_name, schema) => {
    const bad: string[] = [];
    for (const field of Object.keys(schema.shape)) {
      for (const value of WRONG) {
        const result = schema.safeParse({ [field]: value, 'no such field': 1 });
        for (const issue of result.error?.issues ?? []) {
          for (const lng of ['en', 'de', 'es']) {
            const text = sentence(issue.message, lng);
            if (/^(NOT A KEY|MISSING)/.test(text) || text.includes('{{') || !/[.!?)»“"]$/.test(text.trim()))
              bad.push(`${field}=${JSON.stringify(value)?.slice(0, 20)} (${lng}): ${text}`);
          }
        }
      }
    }
    expect(bad).toEqual([]);
  });
});

describe('zodIssueMessage', () => {
  it('names the field as people read it', () => {
    const schema = z.strictObject({
      screen_name: z.string(),
      age: z.number().min(18),
      tags: z.array(z.string()).max(2),
    });
    const issues = schema.safeParse({ age: 3, tags: ['a', 'b', 'c'], extra: 1 }).error!.issues;
    expect(issues.map((i) => sentence(i.message, 'en')).sort()).toEqual(
      [
        "Screen name can't be blank!",
        'Age must be at least 18.',
        'Tags may have at most 2 entries.',
        'This form has no field "extra".',
      ].sort(),
    );
    expect(issues.map((i) => sentence(i.message, 'de')).sort()).toContain('Age muss mindestens 18 sein.');
  });

  it('keeps a message the schema chose', () => {
    const text = z.string().min(3, 'validation.searchMin {"n":3}').safeParse('ab').error!.issues[0].message;
    expect(sentence(text, 'es')).toBe('La búsqueda necesita al menos 3 caracteres.');
  });

  it('has a key for every code it answers, in every language', () => {
    expect(parseMessageText(zodIssueMessage({ code: 'custom', path: ['x'], input: 1 } as never))).toEqual({
      key: ZOD_KEYS.invalid,
      params: { label: 'X' },
    });
    for (const key of Object.values(ZOD_KEYS))
      for (const lng of ['en', 'de', 'es']) expect(sentence(key, lng)).not.toMatch(/^MISSING/);
  });
});
