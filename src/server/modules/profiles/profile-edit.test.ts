// The edit calls: every validation rule of spec section 5 with its text, a refused call that changes
// nothing, the completion walk from an empty profile to listed in its city's directory and in search,
// the three switches of the ad taking effect at once, the overview, the city picker and the listings.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditLog, cityNames, listings, profiles, profileStatsDaily } from '../../db/schema';
import { addAdditionalListing } from '../listings/listings.service';
import { as } from '../../test/as';
import { atClock, hoursFromNow } from '../../test/clock';
import {
  BERLIN,
  createAdvertiser,
  createSession,
  LONDON,
  MANCHESTER,
  seedGeo,
  type Session,
} from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { multipart, picture } from '../../test/media-files';

let t: TestApp;
let admin: { id: number; session: Session };

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  const account = (await createAdvertiser(t.ctx, { role: 'admin' })).account;
  admin = { id: account.id, session: await createSession(t.ctx, account.id) };
});
afterAll(() => t.close());

let counter = 0;
/** A freshly registered advertiser: an empty profile, no listing (what /auth/register leaves). */
async function newAdvertiser() {
  counter += 1;
  const username = `fresh${counter}_${Date.now().toString(36)}`;
  const [account] = await t.ctx.db
    .insert(accounts)
    .values({
      email: `${username}@example.test`,
      username,
      passwordHash: 'x',
      dateOfBirth: '1990-01-01',
      termsAcceptedAt: new Date(),
    })
    .returning();
  await t.ctx.db.insert(profiles).values({ userId: account.id });
  return { id: account.id, session: await createSession(t.ctx, account.id) };
}

const update = (session: Session, payload: object) => as(t, session).post('/api/update', payload);
const profileRow = async (id: number) => (await t.ctx.db.select().from(profiles).where(eq(profiles.userId, id)))[0];

async function uploadAvatar(session: Session) {
  const form = multipart(await (await picture({ width: 400, height: 500 })).jpeg().toBuffer());
  const res = await as(t, session).post('/api/upload/photo/avatar', form.payload, { headers: form.headers });
  expect(res.statusCode, res.body).toBe(200);
}

/** A complete, listed profile made the way the site makes one: about me and an uploaded avatar. */
async function listedAdvertiser(o: Parameters<typeof createAdvertiser>[1] = {}) {
  const { account } = await createAdvertiser(t.ctx, { about: 'Hello, nice to meet you.', ...o });
  const session = await createSession(t.ctx, account.id);
  await uploadAvatar(session);
  expect((await profileRow(account.id)).listed).toBe(true);
  return { account, session };
}

async function directoryIds(country: string, place: string, category = 'escorts') {
  const res = await as(t).post('/api/directory/getDirectory', { category, country, place });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as Array<{ id: number }>).map((i) => i.id);
}
async function searchIds(q: string) {
  const res = await as(t).post('/api/directory/search', { q });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as Array<{ id: number }>).map((i) => i.id);
}

describe('validation rules (spec section 5), each with its text, and nothing changes', () => {
  const cases: Array<[string, object, string, string]> = [
    ['blank screen name', { section: 'screen_name', screen_name: '  ' }, 'screen_name', "Screen name can't be blank!"],
    ['missing screen name', { section: 'screen_name' }, 'screen_name', "Screen name can't be blank!"],
    [
      'a URL as screen name',
      { section: 'screen_name', screen_name: 'www.anna.com' },
      'screen_name',
      'Screen name must be a name only, with no links, phone numbers or slogans.',
    ],
    [
      'a phone number as screen name',
      { section: 'screen_name', screen_name: 'Anna 07946 0000' },
      'screen_name',
      'Screen name must be a name only, with no links, phone numbers or slogans.',
    ],
    [
      'a slogan as screen name',
      { section: 'screen_name', screen_name: 'Best GFE in town' },
      'screen_name',
      'Screen name must be a name only, with no links, phone numbers or slogans.',
    ],
    [
      'a long slogan as screen name',
      { section: 'screen_name', screen_name: 'Anna the one you dream of' },
      'screen_name',
      'Screen name must be a name only, with no links, phone numbers or slogans.',
    ],
    ['blank heading', { section: 'heading', heading: '' }, 'heading', "Ad heading can't be blank!"],
    ['a heading of two lines', { section: 'heading', heading: 'One\nTwo' }, 'heading', 'Ad heading must be one line.'],
    ['blank about me', { section: 'about', about: ' \n ' }, 'about', "About me can't be blank!"],
    ['missing gender', { section: 'gender' }, 'gender', "Gender can't be blank!"],
    ['unknown gender', { section: 'gender', gender: 'robot' }, 'gender', "Gender can't be blank!"],
    ['blank phone', { section: 'phone', phone: '' }, 'phone', "Phone can't be blank!"],
    [
      'a phone without + or 00',
      { section: 'phone', phone: '020 7946 0018' },
      'phone',
      'Phone needs its country code: start with + or 00, for example +44 20 7946 0018.',
    ],
    [
      'a phone number too short for its country',
      { section: 'phone', phone: '+44 12' },
      'phone',
      'This is too short for a number in the United Kingdom.',
    ],
    [
      'a phone number not in use',
      { section: 'phone', phone: '+44 7700 900123' },
      'phone',
      'This is not a number in use in the United Kingdom.',
    ],
    [
      'a phone with letters',
      { section: 'phone', phone: '+44 20 CALL ME' },
      'phone',
      'Phone may contain only digits, spaces, brackets, dots, dashes and a + at the start.',
    ],
    ['missing city', { section: 'location', city_id: null }, 'city_id', "City can't be blank!"],
    [
      'an unknown currency',
      { section: 'rates', currency: 'XXX', incall: {}, outcall: {} },
      'currency',
      'Currency is not one of the choices offered.',
    ],
    [
      'a negative rate',
      { section: 'rates', currency: 'EUR', incall: { '60min': -1 }, outcall: {} },
      'incall.60min',
      'Rates cannot be negative.',
    ],
    [
      'a rate with cents',
      { section: 'rates', currency: 'EUR', incall: {}, outcall: { dinner: 10.5 } },
      'outcall.dinner',
      'Rates: whole amounts only.',
    ],
    [
      'a rate field that does not exist',
      { section: 'rates', currency: 'EUR', incall: { '45min': 100 }, outcall: {} },
      'incall',
      '',
    ],
    [
      'an availability time not HH:MM',
      { section: 'availability', availability: { monday: { from: '9', until: '17:00' } } },
      'availability.monday.from',
      'Times are written HH:MM.',
    ],
    ['an unknown service', { section: 'services', services: ['massage', 'nonsense'] }, 'services.1', ''],
    [
      'a service twice',
      { section: 'services', services: ['massage', 'massage'] },
      'services',
      'Each entry may be chosen once.',
    ],
    ['an unknown language', { section: 'language', languages: ['xx'] }, 'languages.0', ''],
    [
      'too many personality traits',
      {
        section: 'personality',
        personality: ['friendly', 'outgoing', 'shy', 'playful', 'elegant', 'intelligent', 'calm', 'funny', 'caring'],
      },
      'personality',
      'Personality may have at most 8 entries.',
    ],
    [
      'a link with spaces',
      { section: 'links', links: { messenger: { telegram: 'anna x' }, social: {}, crypto: {} } },
      'links.messenger.telegram',
      'Messenger may not contain spaces.',
    ],
    ['an unknown section', { section: 'password', password: 'x' }, 'section', ''],
    ['an unknown key', { section: 'heading', heading: 'Hello', extra: 1 }, 'body', ''],
    ['a NUL byte', { section: 'about', about: 'Hi\u0000' }, 'about', 'About me may not contain control characters.'],
  ];

  it.each(cases)('%s: 422', async (_name, body, field, message) => {
    const { id, session } = await newAdvertiser();
    const before = await profileRow(id);
    const res = await update(session, body);
    expect(res.statusCode, res.body).toBe(422);
    const errors = res.json().errors as Record<string, string[]>;
    const key = Object.keys(errors).find((k) => k === field || (field === 'body' && k.length > 0));
    expect(key, `field ${field} in ${JSON.stringify(errors)}`).toBeDefined();
    if (message) expect(errors[key!]).toContain(message);
    const after = await profileRow(id);
    expect(after).toEqual(before);
  });

  it('the blank message follows the page language', async () => {
    const { session } = await newAdvertiser();
    const res = await as(t, session).post(
      '/api/update',
      { section: 'phone', phone: '0201234' },
      { headers: { 'x-language': 'de' } },
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.phone).toEqual([
      'Telefon braucht die Ländervorwahl: beginne mit + oder 00, zum Beispiel +49 30 12345678.',
    ]);
  });

  it('accepts real names and stores the phone as E.164', async () => {
    const { id, session } = await newAdvertiser();
    for (const name of ['Anna', 'Mary-Jane', "D'Arcy", 'Lady Sasha', 'Zoë', 'Anna2', 'Ана']) {
      const res = await update(session, { section: 'screen_name', screen_name: `${name}` });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
    }
    const res = await update(session, { section: 'phone', phone: '+442079460018' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.phone).toBe('+442079460018');
    expect((await profileRow(id)).phone).toBe('+442079460018');
  });

  it('stamps an edit with the app clock (the lastmod of the sitemap), not the database clock', async () => {
    const { id, session } = await newAdvertiser();
    const realNow = t.ctx.now;
    const at = new Date(Date.now() + 3_600_000);
    t.ctx.now = () => at;
    try {
      expect((await update(session, { section: 'heading', heading: 'An hour ahead' })).statusCode).toBe(200);
      expect((await profileRow(id)).updatedAt).toEqual(at);
    } finally {
      t.ctx.now = realNow;
    }
  });

  it('refuses a screen name another profile has, in any case', async () => {
    const other = await createAdvertiser(t.ctx, { screenName: 'Valentina' });
    expect(other.account.id).toBeGreaterThan(0);
    const { id, session } = await newAdvertiser();
    const res = await update(session, { section: 'screen_name', screen_name: 'valentina' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.screen_name).toEqual(['This screen name is already taken.']);
    expect((await profileRow(id)).screenName).toBeNull();
  });

  it('refuses a city that does not exist', async () => {
    const { id, session } = await newAdvertiser();
    const res = await update(session, { section: 'location', city_id: 999_999_999 });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.city_id).toEqual(['This city does not exist.']);
    expect((await profileRow(id)).cityId).toBeNull();
    expect(await t.ctx.db.select().from(listings).where(eq(listings.profileId, id))).toEqual([]);
  });

  it('saves the 11 rate fields in the profile currency, unset ones as not offered', async () => {
    const { id, session } = await newAdvertiser();
    const incall = { '30min': 80, '60min': 120, '90min': 170, '120min': 220, quickie: 60, overnight: 900 };
    const outcall = { '60min': 150, '90min': 200, '120min': 250, dinner: 320 };
    const res = await update(session, { section: 'rates', currency: 'GBP', incall, outcall });
    expect(res.statusCode, res.body).toBe(200);
    const row = await profileRow(id);
    expect(row.currency).toBe('GBP');
    expect(row.rates).toEqual({ incall, outcall: { ...outcall, overnight: null } });
  });

  it('availability, links, services, personality and languages round-trip', async () => {
    const { id, session } = await newAdvertiser();
    const ok = async (body: object) => {
      const res = await update(session, body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };
    await ok({ section: 'availability', availability: { monday: { from: '10:00', until: '02:00' }, sunday: null } });
    await ok({
      section: 'links',
      links: { messenger: { telegram: '@anna_ldn', whatsapp: '' }, social: { instagram: 'anna' }, crypto: {} },
    });
    await ok({ section: 'services', services: ['massage', 'dinner_date'] });
    await ok({ section: 'personality', personality: ['friendly', 'elegant'] });
    const data = await ok({ section: 'language', languages: ['en', 'it'] });
    expect(data.availability.monday).toEqual({ from: '10:00', until: '02:00' });
    expect(data.availability.tuesday).toBeNull();
    expect(data.links).toEqual({ messenger: { telegram: '@anna_ldn' }, social: { instagram: 'anna' } });
    expect(data.services).toEqual(['massage', 'dinner_date']);
    expect(data.languages).toEqual(['en', 'it']);
    expect((await profileRow(id)).personality).toEqual(['friendly', 'elegant']);
  });
});

describe('who may edit', () => {
  it('another advertiser cannot change a profile through /update (403) and nothing changes', async () => {
    const owner = await newAdvertiser();
    const stranger = await newAdvertiser();
    const before = await profileRow(owner.id);
    const res = await update(stranger.session, { section: 'heading', heading: 'Hijacked', user_id: owner.id });
    expect(res.statusCode).toBe(403);
    expect(await profileRow(owner.id)).toEqual(before);
  });

  it('an admin can, and the audit log says so (at the app clock)', async () => {
    const owner = await newAdvertiser();
    const at = hoursFromNow(2);
    const res = await atClock(t.ctx, at, () =>
      update(admin.session, { section: 'heading', heading: 'Fixed by staff', user_id: owner.id }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect((await profileRow(owner.id)).heading).toBe('Fixed by staff');
    const audit = await t.ctx.db.select().from(auditLog).where(eq(auditLog.targetUserId, owner.id));
    expect(audit.map((a) => [a.actorId, a.action, a.createdAt])).toEqual([[admin.id, 'profile.update.heading', at]]);
  });

  it('getUpdateData of someone else is 403, of nobody 404', async () => {
    const owner = await newAdvertiser();
    const stranger = await newAdvertiser();
    expect((await as(t, stranger.session).get(`/api/getUpdateData/${owner.id}`)).statusCode).toBe(403);
    expect((await as(t, admin.session).get(`/api/getUpdateData/2147483000`)).statusCode).toBe(404);
  });
});

describe('profile completion: from registered to listed', () => {
  it('walks the required sections; after the last one the profile is in its city and in search at once', async () => {
    const { id, session } = await newAdvertiser();
    // The server's answer to the shell (spec section 1): not complete, so the completion path.
    const me = await as(t, session).post('/api/app/getData/x', {});
    expect(me.json().data ?? me.json()).toMatchObject({ complete: false });

    let data = (await as(t, session).get(`/api/getUpdateData/${id}`)).json().data;
    expect(data.missing).toEqual(['screenName', 'heading', 'gender', 'cityId', 'phone', 'about', 'avatar']);

    const steps: object[] = [
      { section: 'screen_name', screen_name: 'Quintessa' },
      { section: 'heading', heading: 'Elegant company in Manchester' },
      { section: 'gender', gender: 'trans' },
      { section: 'location', city_id: MANCHESTER.id, place: 'Northern Quarter', landmark: '' },
      { section: 'phone', phone: '+44 161 496 0000' },
      { section: 'about', about: 'I love good conversation, art galleries and long dinners.' },
    ];
    for (const step of steps) {
      const res = await update(session, step);
      expect(res.statusCode, res.body).toBe(200);
      data = res.json().data;
      expect(data.listed).toBe(false);
    }
    expect(data.missing).toEqual(['avatar']);
    expect(await directoryIds('united-kingdom', 'manchester')).not.toContain(id);

    await uploadAvatar(session);
    data = (await as(t, session).get(`/api/getUpdateData/${id}`)).json().data;
    expect(data).toMatchObject({ complete: true, listed: true, missing: [] });
    expect(await directoryIds('united-kingdom', 'manchester')).toContain(id);
    expect(await directoryIds('united-kingdom', 'manchester', 'trans')).toContain(id);
    expect(await directoryIds('united-kingdom', 'manchester', 'female')).not.toContain(id);
    expect(await searchIds('Quintessa')).toContain(id);
    expect(await searchIds('northern quarter')).toContain(id);
    const user = (await as(t, session).post('/api/app/getData/x', {})).json();
    expect(user.data ?? user).toMatchObject({ complete: true });
  });

  it('a search made before listing does not hide the new profile afterwards', async () => {
    const { id, session } = await newAdvertiser();
    expect(await searchIds('Xanthippe')).toEqual([]);
    for (const step of [
      { section: 'screen_name', screen_name: 'Xanthippe' },
      { section: 'heading', heading: 'Hello' },
      { section: 'gender', gender: 'female' },
      { section: 'location', city_id: LONDON.id },
      { section: 'phone', phone: '+44 20 7946 0123' },
      { section: 'about', about: 'Hello there.' },
    ])
      expect((await update(session, step)).statusCode).toBe(200);
    await uploadAvatar(session);
    expect(await searchIds('Xanthippe')).toEqual([id]);
  });

  it('blanking a required section unlists the profile at once', async () => {
    const { account, session } = await listedAdvertiser({ screenName: 'Ottilie', city: BERLIN });
    expect(await directoryIds('germany', 'berlin')).toContain(account.id);
    // A blank is refused (422), so a required field cannot be emptied through the form...
    expect((await update(session, { section: 'about', about: '' })).statusCode).toBe(422);
    // ...but moving the ad to another city moves it in the directory in the same request.
    expect((await update(session, { section: 'location', city_id: LONDON.id })).statusCode).toBe(200);
    expect(await directoryIds('germany', 'berlin')).not.toContain(account.id);
    expect(await directoryIds('united-kingdom', 'london')).toContain(account.id);
    const homes = await t.ctx.db.select().from(listings).where(eq(listings.profileId, account.id));
    expect(homes.map((l) => [l.kind, l.cityId, l.countryCode, l.countryPrimary])).toEqual([
      ['home', LONDON.id, 'GB', true],
    ]);
  });
});

describe('the switches of the ad take effect at once', () => {
  it('ad status hidden leaves directory, search and the profile page; visible brings it back', async () => {
    const { account, session } = await listedAdvertiser({ screenName: 'Philippa', city: MANCHESTER });
    const id = account.id;
    expect(await searchIds('Philippa')).toContain(id);
    let res = await as(t, session).post(`/api/edit/setAttribute/${id}`, { attribute: 'ad_status', value: 'hidden' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ attribute: 'ad_status', value: 'hidden' });
    expect(await directoryIds('united-kingdom', 'manchester')).not.toContain(id);
    expect(await searchIds('Philippa')).not.toContain(id);
    expect((await as(t).get(`/api/getProfile/${id}`)).statusCode).toBe(404);
    expect((await as(t).get('/sitemap-profiles-1.xml')).body).not.toContain(`/profile/${id}<`);
    res = await as(t, session).post(`/api/edit/getAttribute/${id}`, { attribute: 'ad_status' });
    expect(res.json().data).toEqual({ attribute: 'ad_status', value: 'hidden' });
    await as(t, session).post(`/api/edit/setAttribute/${id}`, { attribute: 'ad_status', value: 'visible' });
    expect(await directoryIds('united-kingdom', 'manchester')).toContain(id);
    expect((await as(t).get('/sitemap-profiles-1.xml')).body).toContain(`/profile/${id}<`);
    expect(await searchIds('Philippa')).toContain(id);
  });

  it('the dominatrix listing puts the profile in /dom and takes it out again', async () => {
    const { account, session } = await listedAdvertiser({ city: MANCHESTER });
    expect(await directoryIds('united-kingdom', 'manchester', 'dom')).not.toContain(account.id);
    await as(t, session).post(`/api/edit/setAttribute/${account.id}`, { attribute: 'dominatrix', value: true });
    expect(await directoryIds('united-kingdom', 'manchester', 'dom')).toContain(account.id);
    await as(t, session).post(`/api/edit/setAttribute/${account.id}`, { attribute: 'dominatrix', value: false });
    expect(await directoryIds('united-kingdom', 'manchester', 'dom')).not.toContain(account.id);
  });

  it('comments off: a visitor can no longer comment', async () => {
    const { account, session } = await listedAdvertiser();
    const commenter = await newAdvertiser();
    await as(t, session).post(`/api/edit/setAttribute/${account.id}`, { attribute: 'comments', value: false });
    const res = await as(t, commenter.session).post(`/api/comments/${account.id}`, { body: 'Hello!' });
    expect(res.statusCode).toBe(403);
    await as(t, session).post(`/api/edit/setAttribute/${account.id}`, { attribute: 'comments', value: true });
    expect((await as(t, commenter.session).post(`/api/comments/${account.id}`, { body: 'Hello!' })).statusCode).toBe(
      200,
    );
  });

  it('refuses unknown attributes and wrong values', async () => {
    const { account } = await createAdvertiser(t.ctx);
    const session = await createSession(t.ctx, account.id);
    const before = await profileRow(account.id);
    for (const body of [
      { attribute: 'flagged', value: false },
      { attribute: 'ad_status', value: 'gone' },
      { attribute: 'comments', value: 'yes' },
      { attribute: 'dominatrix' },
    ]) {
      const res = await as(t, session).post(`/api/edit/setAttribute/${account.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
    }
    expect(await profileRow(account.id)).toEqual(before);
    expect(
      (await as(t, session).post(`/api/edit/getAttribute/${account.id}`, { attribute: 'flagged' })).statusCode,
    ).toBe(422);
  });
});

describe('overview', () => {
  it('shows completeness, status, position, balance, verification and 30 days of counts', async () => {
    const { account, session } = await listedAdvertiser({ city: BERLIN, bumpedAt: new Date(Date.now() + 60_000) });
    const today = new Date().toISOString().slice(0, 10);
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const longAgo = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10);
    await t.ctx.db.insert(profileStatsDaily).values([
      { profileId: account.id, day: today, impressions: 10, views: 3, phoneReveals: 1 },
      { profileId: account.id, day: twoDaysAgo, impressions: 5, views: 2, phoneReveals: 0 },
      { profileId: account.id, day: longAgo, impressions: 99, views: 99, phoneReveals: 99 },
    ]);
    const res = await as(t, session).get(`/api/edit/getOverview/${account.id}/30`);
    expect(res.statusCode, res.body).toBe(200);
    const o = res.json().data;
    expect(o).toMatchObject({
      complete: true,
      missing: [],
      listed: true,
      ad_status: 'visible',
      position: 1,
      balance: 0,
      currency: 'EUR',
      verification: { status: 'none', verified_at: null },
      totals: { impressions: 15, views: 5, phone_reveals: 1 },
    });
    expect(o.stats).toHaveLength(30);
    expect(o.stats[29]).toEqual({ day: today, impressions: 10, views: 3, phone_reveals: 1 });
    expect(o.stats[27]).toEqual({ day: twoDaysAgo, impressions: 5, views: 2, phone_reveals: 0 });
    expect(o.stats[0].impressions).toBe(0);
    expect((await as(t, session).get(`/api/edit/getOverview/${account.id}/0`)).statusCode).toBe(404);
    expect((await as(t, session).get(`/api/edit/getOverview/${account.id}/91`)).statusCode).toBe(404);
  });
});

describe('city picker and listings', () => {
  it('finds imported cities by name or slug, big ones first, optionally in one country', async () => {
    const { session } = await newAdvertiser();
    let res = await as(t, session).get('/api/edit/findCities?q=man');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((c: { name: string }) => c.name)).toEqual(['Manchester']);
    res = await as(t, session).get('/api/edit/findCities?q=lon');
    expect(res.json().data[0]).toMatchObject({ id: LONDON.id, country_code: 'GB', country_slug: 'united-kingdom' });
    res = await as(t, session).get('/api/edit/findCities?q=ber&country=gb');
    expect(res.json().data).toEqual([]);
    res = await as(t, session).get('/api/edit/findCities?q=%25');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([]);
  });

  it('finds and names a city in the page language where it has a name there (issue 13)', async () => {
    const { session } = await newAdvertiser();
    await t.ctx.db.insert(cityNames).values({ cityId: LONDON.id, lang: 'es', name: 'Londres' }).onConflictDoNothing();
    const es = (path: string) => as(t, session).get(path, { headers: { 'x-language': 'es' } });
    let res = await es('/api/edit/findCities?q=londr');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data[0]).toMatchObject({ id: LONDON.id, name: 'Londres', slug: 'london' });
    res = await es('/api/edit/findCities?q=lon');
    expect(res.json().data[0]).toMatchObject({ id: LONDON.id, name: 'Londres' });
    // English pages keep the English name, and the Spanish one finds nothing there.
    expect((await as(t, session).get('/api/edit/findCities?q=lon')).json().data[0]).toMatchObject({ name: 'London' });
    expect((await as(t, session).get('/api/edit/findCities?q=londr')).json().data).toEqual([]);
    expect((await as(t, session).get('/api/edit/findCities?q=')).statusCode).toBe(422);
    expect((await as(t).get('/api/edit/findCities?q=lon')).statusCode).toBe(401);
  });

  it('lists home and additional locations with tour dates and days left; tour dates are editable', async () => {
    const { account, session } = await listedAdvertiser({ city: LONDON });
    const now = new Date();
    await addAdditionalListing(t.ctx.db, {
      profileId: account.id,
      cityId: BERLIN.id,
      days: 30,
      from: null,
      until: null,
      now,
    });
    let res = await as(t, session).get(`/api/edit/getListings/${account.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.listings.map((l: { kind: string; city: { name: string } }) => [l.kind, l.city.name])).toEqual([
      ['home', 'London'],
      ['additional', 'Berlin'],
    ]);
    const berlin = data.listings[1];
    // 30 days bought just now: 30 left (issue 23 item 4), and the last day in Berlin's calendar.
    expect(berlin.days_left).toBe(30);
    expect(berlin.last_day).toBe(
      new Date(now.getTime() + 30 * 86_400_000 - 1).toLocaleDateString('en-CA', { timeZone: 'Europe/Berlin' }),
    );
    expect(data.listings[0]).toMatchObject({ days_left: null, last_day: null });

    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    res = await as(t, session).post(`/api/edit/setTourDates/${account.id}`, {
      listing_id: berlin.id,
      from: day(5),
      until: day(2),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.until).toEqual(['The tour cannot end before it starts.']);
    res = await as(t, session).post(`/api/edit/setTourDates/${account.id}`, {
      listing_id: berlin.id,
      from: day(2),
      until: day(60),
    });
    expect(res.statusCode).toBe(422);
    res = await as(t, session).post(`/api/edit/setTourDates/${account.id}`, {
      listing_id: data.listings[0].id,
      from: null,
      until: null,
    });
    expect(res.statusCode).toBe(422);
    res = await as(t, session).post(`/api/edit/setTourDates/${account.id}`, {
      listing_id: berlin.id,
      from: day(2),
      until: day(5),
    });
    expect(res.statusCode, res.body).toBe(200);
    // The listing now ends with the tour: its last day is the tour's.
    expect(res.json().data.listings[1]).toMatchObject({ tour_from: day(2), tour_until: day(5), last_day: day(5) });
    // Out-call: no dates.
    res = await as(t, session).post(`/api/edit/setTourDates/${account.id}`, {
      listing_id: berlin.id,
      from: null,
      until: null,
    });
    expect(res.json().data.listings[1]).toMatchObject({ tour_from: null, tour_until: null });

    // Home cannot move to a city it already has an additional location in.
    res = await update(session, { section: 'location', city_id: BERLIN.id });
    expect(res.statusCode).toBe(422);
    expect((await profileRow(account.id)).cityId).toBe(LONDON.id);
  });
});
