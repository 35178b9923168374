// Issue 42 item 4 (decision 0810, migration 0032): a phone number written from "+" passes the card guard,
// but the search index must not keep its digits as one run that could read as a card number.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { createAdvertiser, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
});
afterAll(() => t.close());

const words = async (table: string, like: string) =>
  (await queryRows<{ word: string }>(t.ctx.db, sql`select word from ${sql.raw(table)} where word like ${like}`)).map(
    (r) => r.word,
  );

describe('search words of a text with a phone number (migration 0032)', () => {
  it('keeps its groups and short numbers, never a run of 13 digits or more', async () => {
    await createAdvertiser(t.ctx, {
      listed: true,
      heading: 'Call me +62 812 3456 7890 or 6281234567890 after 2026',
    });
    await t.ctx.db.execute(sql`select 1`);
    const postings = await words('search_postings', '%');
    expect(postings).toContain('2026');
    expect(postings).toContain('812');
    expect(postings.filter((w) => /^\d{13,}$/.test(w))).toEqual([]);
    expect((await words('search_vocabulary', '628%')).filter((w) => w.length >= 13)).toEqual([]);
    const [{ n }] = await queryRows<{ n: number }>(
      t.ctx.db,
      sql`select count(*)::int as n from search_words_of('a 6281234567890 12345678901234567 123456789012 b')`,
    );
    // 123456789012 (12 digits) stays a word; a and b are under three characters.
    expect(n).toBe(1);
  });
});
