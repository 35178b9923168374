import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_SIZE } from '#shared/constants.ts';
import { queryRows } from '../../db/client';
import { BERLIN, createAdvertiser, MANCHESTER, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { refreshSearchWords } from './directory.service';

let t: TestApp;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  const mk = async (key: string, o: Parameters<typeof createAdvertiser>[1]) => {
    ids[key] = (await createAdvertiser(t.ctx, o)).account.id;
  };
  await mk('zoe', {
    screenName: 'Zoë Laurent',
    heading: 'Elegant dinner companion',
    services: ['dinner_date', 'massage'],
  });
  await mk('anja', { screenName: 'Anja', heading: 'Berlin nights', city: BERLIN, gender: 'trans' });
  await mk('max', { screenName: 'Maximilian', heading: 'Gentleman', city: MANCHESTER, gender: 'male' });
  await mk('hiddenzoe', { screenName: 'Zoe Hidden', adStatus: 'hidden' });
  await mk('flaggedzoe', { screenName: 'Zoe Flagged', flagged: true });
  await refreshSearchWords(t.ctx.db);
});
afterAll(() => t.close());

const search = (q: unknown, page = 1) =>
  t.app.inject({ method: 'POST', url: `/api/directory/search?page=${page}`, payload: { q } });
const found = async (q: string) => (await search(q)).json().data.map((i: { id: number }) => i.id);

describe('search', () => {
  it('matches names regardless of accents and case', async () => {
    expect(await found('zoe')).toEqual([ids.zoe]);
    expect(await found('ZOË')).toEqual([ids.zoe]);
  });

  it('tolerates a typo', async () => {
    expect(await found('maximillian')).toEqual([ids.max]);
    expect(await found('machnester')).toEqual([ids.max]);
    expect(await found('zoe elegnat')).toEqual([ids.zoe]);
  });

  it('finds nothing for a word unlike any in the directory', async () => {
    const res = await search('qwxzvbn');
    expect(res.json()).toEqual({ data: [], page: 1, has_more: false, total: 0 });
  });

  it('matches headings, cities and services', async () => {
    expect(await found('elegant')).toEqual([ids.zoe]);
    expect(await found('berlin')).toEqual([ids.anja]);
    expect(await found('manchester')).toEqual([ids.max]);
    expect(await found('dinner date')).toEqual([ids.zoe]);
  });

  it('never shows hidden or flagged profiles', async () => {
    const all = await found('zoe hidden');
    expect(all).not.toContain(ids.hiddenzoe);
    expect(await found('flagged')).toEqual([]);
  });

  it('needs 3 trimmed characters', async () => {
    const res = await search('  ab  ');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.q).toEqual(['Search needs at least 3 characters.']);
    expect((await search(undefined)).json().errors.q).toEqual(["Search can't be blank!"]);
  });
});

describe('nearby', () => {
  it('orders profiles by the distance of their city', async () => {
    // A point near Manchester: Manchester first, then London, then Berlin.
    const res = await t.app.inject({ method: 'POST', url: '/api/directory/nearby', payload: { lat: 53.4, lng: -2.2 } });
    expect(res.statusCode).toBe(200);
    const data = res.json().data as Array<{ id: number; distance_km: number }>;
    expect(data.map((d) => d.id)).toEqual([ids.max, ids.zoe, ids.anja]);
    expect(data[0].distance_km).toBeLessThan(20);
    expect(data[2].distance_km).toBeGreaterThan(900);
  });

  it('rejects a position off the globe', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/directory/nearby', payload: { lat: 123, lng: 0 } });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['lat']);
  });
});

describe('impressions, views and phone reveals', () => {
  const stats = (id: number) =>
    queryRows<{ impressions: number; views: number; phone_reveals: number }>(
      t.ctx.db,
      sql`select impressions, views, phone_reveals from profile_stats_daily where profile_id = ${id}`,
    );

  it('counts each listed profile once per flush and ignores unknown or hidden ones', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/directory/impressions',
      payload: {
        impressions: {
          '/escorts/united-kingdom': [ids.zoe, ids.max, ids.zoe],
          '/search?q=zoe': [ids.zoe, ids.hiddenzoe, 999999],
        },
      },
    });
    expect(res.json()).toEqual({ counted: 2 });
    expect(await stats(ids.zoe)).toEqual([{ impressions: 1, views: 0, phone_reveals: 0 }]);
    expect(await stats(ids.hiddenzoe)).toEqual([]);
  });

  it('counts a profile view and a phone reveal', async () => {
    await t.app.inject({ method: 'GET', url: `/api/getProfile/${ids.max}` });
    await t.app.inject({ method: 'POST', url: `/api/directory/phoneReveal/${ids.max}` });
    expect(await stats(ids.max)).toEqual([{ impressions: 1, views: 1, phone_reveals: 1 }]);
    // Another visitor (one visitor counts once a day: view-counts.test.ts).
    const profile = (
      await t.app.inject({ method: 'GET', url: `/api/getProfile/${ids.max}`, remoteAddress: '10.77.0.2' })
    ).json().profile;
    expect(profile.views).toBe(1); // read before this view was added
    // A list showing the profile (bookmarks) asks with track=0 and counts nothing.
    await t.app.inject({ method: 'GET', url: `/api/getProfile/${ids.max}?track=0` });
    expect((await stats(ids.max))[0].views).toBe(2);
  });
});

describe('setFeedback', () => {
  it('stores a safeguarding report at the top of the queue and answers with a notification', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/directory/setFeedback',
      payload: { data: { profile_id: ids.anja, reason: 'may_be_under_18', message: 'Looks very young' } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ type: 'notification', icon: 'success' });
    await t.app.inject({ method: 'POST', url: '/api/directory/setFeedback', payload: { data: { reason: 'spam' } } });
    const queue = await queryRows<{ reason: string; priority: number }>(
      t.ctx.db,
      sql`select reason, priority from feedback where status = 'open' order by priority desc, created_at`,
    );
    expect(queue).toEqual([
      { reason: 'may_be_under_18', priority: 10 },
      { reason: 'spam', priority: 0 },
    ]);
  });

  it('refuses a report without a reason and writes nothing', async () => {
    const before = await queryRows<{ n: number }>(t.ctx.db, sql`select count(*)::int as n from feedback`);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/directory/setFeedback',
      payload: { data: { message: 'x' } },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors['data.reason']).toEqual(["Reason can't be blank!"]);
    const after = await queryRows<{ n: number }>(t.ctx.db, sql`select count(*)::int as n from feedback`);
    expect(after).toEqual(before);
  });

  it('answers 404 for a report on a profile that does not exist', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/directory/setFeedback',
      payload: { data: { profile_id: 987654, reason: 'spam' } },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('rate limits', () => {
  it('stops a flood of reports from one address with 429 {message}', async () => {
    let last;
    for (let i = 0; i < 11; i++) {
      last = await t.app.inject({
        method: 'POST',
        url: '/api/directory/setFeedback',
        payload: { data: { reason: 'spam' } },
      });
      if (last.statusCode === 429) break;
    }
    expect(last?.statusCode).toBe(429);
    expect(last?.json()).toEqual({ message: 'Too many attempts. Please try again later.' });
  });
});

// Last: it adds profiles in London, which the nearby order above does not expect.
describe('search total and category counts', () => {
  it('says the same total on every page, and it is what paging reaches', async () => {
    const extra = PAGE_SIZE + 5;
    for (let i = 0; i < extra; i++) await createAdvertiser(t.ctx, { screenName: `Pagina ${i}`, heading: 'Quokka fan' });
    const pages = [];
    for (let page = 1; ; page++) {
      const body = (await search('quokka', page)).json();
      pages.push(body);
      if (!body.has_more) break;
    }
    expect(pages).toHaveLength(2);
    expect(pages.map((p) => p.total)).toEqual([extra, extra]);
    expect(pages.flatMap((p) => p.data).length).toBe(extra);
  });

  it("answers a bad page number with a sentence of ours, in the caller's language", async () => {
    const en = await search('quokka', 0);
    expect(en.statusCode).toBe(422);
    expect(en.json()).toEqual({
      message: 'Please check what you entered.',
      errors: { page: ['Page must be at least 1.'] },
    });
    const de = await t.app.inject({
      method: 'POST',
      url: '/api/directory/search?page=abc',
      headers: { 'x-language': 'de' },
      payload: { q: 'quokka' },
    });
    expect(de.json()).toEqual({
      message: 'Bitte prüfe deine Eingaben.',
      errors: { page: ['Page muss eine Zahl sein.'] },
    });
  });

  it('counts countries by the category asked for, and leaves out countries without it', async () => {
    const countries = async (category?: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/directory/countries${category ? `?category=${category}` : ''}`,
      });
      expect(res.statusCode).toBe(200);
      return Object.fromEntries(
        (res.json().data as Array<{ code: string; count: number }>).map((c) => [c.code, c.count]),
      );
    };
    const male = await countries('male');
    expect(male).toEqual({ GB: 1 }); // Maximilian in Manchester; nobody male in Germany
    const trans = await countries('trans');
    expect(trans).toEqual({ DE: 1 }); // Anja in Berlin
    const all = await countries();
    expect(all.DE).toBe(1);
    expect(all.GB).toBeGreaterThan(1);
    // The count is what the country page of that category says.
    const page = await t.app.inject({
      method: 'POST',
      url: '/api/directory/getDirectory',
      payload: { category: 'male', country: 'united-kingdom' },
    });
    expect(page.json().total).toBe(male.GB);
    const bad = await t.app.inject({ method: 'GET', url: '/api/directory/countries?category=robots' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['category']);
  });
});
