// Factories for tests: geography, advertisers with profiles and listings, sessions.
import crypto from 'node:crypto';
import type { AppContext } from '../context';
import { accounts, cities, countries, listings, profiles, sessions } from '../db/schema';
import { hashToken } from '../plugins/session';
import { buildSearchText } from '../modules/profiles/profile-derive';

export const GB = { code: 'GB', slug: 'united-kingdom', name: 'United Kingdom', lat: 54, lng: -2 };
export const DE = { code: 'DE', slug: 'germany', name: 'Germany', lat: 51, lng: 10 };
export const LONDON = {
  id: 2643743,
  countryCode: 'GB',
  name: 'London',
  slug: 'london',
  lat: 51.5,
  lng: -0.12,
  timezone: 'Europe/London',
  population: 8_000_000,
};
export const MANCHESTER = {
  id: 2643123,
  countryCode: 'GB',
  name: 'Manchester',
  slug: 'manchester',
  lat: 53.48,
  lng: -2.24,
  timezone: 'Europe/London',
  population: 400_000,
};
export const BERLIN = {
  id: 2950159,
  countryCode: 'DE',
  name: 'Berlin',
  slug: 'berlin',
  lat: 52.52,
  lng: 13.4,
  timezone: 'Europe/Berlin',
  population: 3_400_000,
};

export async function seedGeo(ctx: AppContext) {
  await ctx.db.insert(countries).values([GB, DE]).onConflictDoNothing();
  await ctx.db.insert(cities).values([LONDON, MANCHESTER, BERLIN]).onConflictDoNothing();
}

let counter = 0;

export interface AdvertiserOptions {
  username?: string;
  role?: 'advertiser' | 'admin';
  passwordHash?: string;
  city?: { id: number; countryCode: string };
  gender?: 'female' | 'male' | 'trans';
  dominatrix?: boolean;
  listed?: boolean;
  adStatus?: 'visible' | 'hidden';
  flagged?: boolean;
  bumpedAt?: Date;
  screenName?: string;
  heading?: string;
  about?: string;
  verified?: boolean;
  services?: string[];
  place?: string;
}

export async function createAdvertiser(ctx: AppContext, o: AdvertiserOptions = {}) {
  counter += 1;
  const username = o.username ?? `user${counter}_${crypto.randomBytes(3).toString('hex')}`;
  const city = o.city ?? LONDON;
  const [account] = await ctx.db
    .insert(accounts)
    .values({
      email: `${username}@example.test`,
      username,
      passwordHash: o.passwordHash ?? 'x',
      role: o.role ?? 'advertiser',
      dateOfBirth: '1990-01-01',
      termsAcceptedAt: new Date(),
      emailVerifiedAt: new Date(),
    })
    .returning();
  const listed = o.listed ?? (o.adStatus !== 'hidden' && !o.flagged);
  const screenName = o.screenName ?? `Name ${username}`;
  const heading = o.heading ?? 'A warm and friendly companion';
  const cityName = [LONDON, MANCHESTER, BERLIN].find((c) => c.id === city.id)?.name ?? null;
  await ctx.db.insert(profiles).values({
    userId: account.id,
    screenName,
    heading,
    about: o.about ?? null,
    services: o.services ?? [],
    place: o.place ?? null,
    searchText: buildSearchText({ screenName, heading, cityName, place: o.place, services: o.services }),
    gender: o.gender ?? 'female',
    dominatrix: o.dominatrix ?? false,
    cityId: city.id,
    phone: '+44 20 7946 0000',
    adStatus: o.adStatus ?? 'visible',
    flagged: o.flagged ?? false,
    complete: true,
    listed,
    verificationStatus: o.verified ? 'verified' : 'none',
    verifiedAt: o.verified ? new Date() : null,
  });
  const [listing] = await ctx.db
    .insert(listings)
    .values({
      profileId: account.id,
      cityId: city.id,
      countryCode: city.countryCode,
      kind: 'home',
      bumpedAt: o.bumpedAt ?? new Date(),
    })
    .returning();
  return { account, listing };
}

/** A signed-in session without going through the login flow; returns what a browser would send. */
export async function createSession(ctx: AppContext, accountId: number) {
  const token = crypto.randomBytes(32).toString('base64url');
  const csrf = crypto.randomBytes(16).toString('base64url');
  await ctx.db.insert(sessions).values({
    id: hashToken(token),
    accountId,
    csrfToken: csrf,
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  return { cookies: { sid: token, csrf }, headers: { 'x-csrf-token': csrf } };
}

/** What a signed-in browser sends: the session's cookies and its CSRF header. */
export type Session = Awaited<ReturnType<typeof createSession>>;

/** Cookies and CSRF header of a response that started a session (login, register, switch). */
export function sessionFromResponse(res: { cookies: Array<{ name: string; value: string }> }) {
  const jar = Object.fromEntries(res.cookies.map((c) => [c.name, c.value]));
  if (!jar.sid || !jar.csrf) throw new Error('The response set no session cookies.');
  return { cookies: { sid: jar.sid, csrf: jar.csrf }, headers: { 'x-csrf-token': jar.csrf } };
}

/** Signs in through the real POST /api/auth/login; returns what a browser would send next. */
export async function signIn(
  app: import('fastify').FastifyInstance,
  login: string,
  password: string,
  remoteAddress?: string,
) {
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { login, password }, remoteAddress });
  if (res.statusCode !== 200) throw new Error(`Sign-in as ${login} failed: ${res.statusCode} ${res.body}`);
  return sessionFromResponse(res);
}
