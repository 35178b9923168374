// The word list behind typo tolerance kept as profiles change (decision 0739, migration 0022): triggers on
// profiles write what each change does to a word's count, the periodic task folds them in, and the list is
// then what a rebuild from every listed profile's text makes. A fold with nothing to fold turns no scope
// (the whole directory's cached answers stay); a counted view writes nothing. Writes are plain SQL where
// they can be: only the database's triggers know of them.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { createAdvertiser, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { rebuildSearchWords, refreshSearchWords } from './directory.service';
import * as repo from './directory.repo';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
});
afterAll(() => t.close());

const words = async () =>
  Object.fromEntries(
    (await queryRows<{ word: string; profiles: number }>(t.ctx.db, sql`select word, profiles from search_words`)).map(
      (r) => [r.word, Number(r.profiles)],
    ),
  );
/** What a rebuild from every listed profile's text makes, counted here without the database's function. */
const recount = async () =>
  Object.fromEntries(
    (
      await queryRows<{ word: string; profiles: number }>(
        t.ctx.db,
        sql`select w as word, count(distinct p.user_id)::int as profiles
          from profiles p, regexp_split_to_table(p.search_text, '[^[:alnum:]]+') as w
          where p.listed and length(w) >= 3 group by w`,
      )
    ).map((r) => [r.word, Number(r.profiles)]),
  );
const pending = async () =>
  Number((await queryRows<{ n: number }>(t.ctx.db, sql`select count(*)::int as n from search_words_delta`))[0].n);
const gVersion = async () =>
  Number((await queryRows<{ v: string }>(t.ctx.db, sql`select v from directory_scopes where scope = 'g'`))[0]?.v ?? 0);
const text = (id: number, s: string) =>
  t.ctx.db.execute(sql`update profiles set search_text = ${s} where user_id = ${id}`);

describe('search words kept by triggers', () => {
  it('a fold after every kind of change gives what a rebuild gives', async () => {
    await rebuildSearchWords(t.ctx.db);
    const a = (await createAdvertiser(t.ctx, { screenName: 'Quillon Amberly' })).account.id;
    const b = (await createAdvertiser(t.ctx, { screenName: 'Quillon Brisk' })).account.id;
    const hidden = (await createAdvertiser(t.ctx, { screenName: 'Quillon Hidden', adStatus: 'hidden' })).account.id;
    expect(await pending()).toBeGreaterThan(0);
    expect((await words()).quillon).toBeUndefined();
    await refreshSearchWords(t.ctx.db);
    expect(await pending()).toBe(0);
    expect((await words()).quillon).toBe(2);
    expect(await words()).toEqual(await recount());

    // Her text changes (a word twice counts once), she is unlisted and listed again, another is deleted.
    await text(a, 'quillon quillon zephyrine tango');
    await text(hidden, 'quillon unseenword');
    await t.ctx.db.execute(sql`update profiles set listed = false where user_id = ${b}`);
    await refreshSearchWords(t.ctx.db);
    expect(await words()).toMatchObject({ quillon: 1, zephyrine: 1, tango: 1 });
    expect((await words()).unseenword).toBeUndefined();
    expect(await words()).toEqual(await recount());

    await t.ctx.db.execute(sql`update profiles set listed = true where user_id = ${b}`);
    await t.ctx.db.execute(sql`update profiles set listed = true where user_id = ${hidden}`);
    await refreshSearchWords(t.ctx.db);
    expect(await words()).toMatchObject({ quillon: 3, unseenword: 1 });
    expect(await words()).toEqual(await recount());

    await t.ctx.db.execute(sql`delete from profiles where user_id in (${a}, ${hidden})`);
    await refreshSearchWords(t.ctx.db);
    const after = await words();
    expect(after.quillon).toBe(1);
    expect(after.zephyrine).toBeUndefined();
    expect(after.unseenword).toBeUndefined();
    expect(after).toEqual(await recount());
  });

  it('a counted view writes nothing, and a fold with nothing to fold turns no scope', async () => {
    const id = (await createAdvertiser(t.ctx, { screenName: 'Quietly Counted' })).account.id;
    await refreshSearchWords(t.ctx.db);
    await repo.incrementProfileViews(t.ctx.db, id);
    const [own] = await queryRows<{ s: string }>(
      t.ctx.db,
      sql`select search_text as s from profiles where user_id = ${id}`,
    );
    await text(id, `${own.s} `); // the same words, written again
    expect(await pending()).toBe(0);
    const before = await gVersion();
    expect(await refreshSearchWords(t.ctx.db)).toBe(0);
    expect(await gVersion()).toBe(before);
    // A new word: the fold turns the scope (the profile's own write turned it already).
    await text(id, `${own.s} anew`);
    const written = await gVersion();
    expect(await refreshSearchWords(t.ctx.db)).toBe(1);
    expect(await gVersion()).toBeGreaterThan(written);
    expect((await words()).anew).toBe(1);
  });

  it('typo tolerance finds a new advertiser once the change is folded', async () => {
    await createAdvertiser(t.ctx, { screenName: 'Wilhelmina Tyde' });
    const search = async () =>
      (
        await t.app.inject({ method: 'POST', url: '/api/directory/search?page=1', payload: { q: 'wilhelmena' } })
      ).json();
    await refreshSearchWords(t.ctx.db);
    const res = await search();
    expect(res.data.map((p: { name: string }) => p.name)).toContain('Wilhelmina Tyde');
  });
});
