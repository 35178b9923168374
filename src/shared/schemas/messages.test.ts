// Issue 9.8: no message of Zod's own wording reaches people. Every field of every shared schema gets
// values of the wrong type (and out-of-range ones); each message that comes back is a sentence of ours.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZOD_TEMPLATES, zodIssueMessage } from '#shared/api/zod-messages.ts';

const modules = import.meta.glob<Record<string, unknown>>(['./*.ts', '!./*.test.ts'], { eager: true });

/** Zod's default wordings (v4), which must never be what a person reads. */
const ZOD_DEFAULTS =
  /^(Invalid input|Invalid option|Invalid discriminator|Invalid (string|element|key|union|value|date|type)|Too (small|big)|Unrecognized key|Expected |Required$|Number must|String must|Array must)/;

const WRONG: unknown[] = [12345, 'not right', true, [], {}, null, -1, 2 ** 40, 1.5, '', 'x'.repeat(20_000), [1, 'a']];

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

  it.each(schemas)('%s: a wrong value in any field gets a sentence of ours', (_name, schema) => {
    const bad: string[] = [];
    for (const field of Object.keys(schema.shape)) {
      for (const value of WRONG) {
        const result = schema.safeParse({ [field]: value, 'no such field': 1 });
        for (const issue of result.error?.issues ?? []) {
          const text = issue.message;
          if (ZOD_DEFAULTS.test(text) || !/[.!?)»“"]$/.test(text.trim()))
            bad.push(`${field}=${JSON.stringify(value)?.slice(0, 20)}: ${text}`);
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
    expect(issues.map((i) => i.message).sort()).toEqual(
      [
        "Screen name can't be blank!",
        'Age must be at least 18.',
        'Tags may have at most 2 entries.',
        'This form has no field "extra".',
      ].sort(),
    );
  });

  it('keeps a message the schema chose', () => {
    expect(z.string().min(3, 'Search needs at least 3 characters.').safeParse('ab').error!.issues[0].message).toBe(
      'Search needs at least 3 characters.',
    );
  });

  it('has a template for every code it answers', () => {
    expect(zodIssueMessage({ code: 'custom', path: ['x'], input: 1 } as never)).toBe(
      ZOD_TEMPLATES.invalid.replace('{{label}}', 'X'),
    );
  });
});
