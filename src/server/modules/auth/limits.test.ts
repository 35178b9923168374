// Brute-force limits under parallel attempts (issue 8, item 1): every attempt is reserved before its
// password or PIN is checked, so however many arrive at once, at most the limit are checked. Run with
// the in-process limiter and with Redis, on PGlite and on PostgreSQL (the two vitest projects).
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../lib/password';
import { RedisRateLimiter } from '../../lib/rate-limiter';
import type { SmsMessage } from '../../lib/sms';
import { createAdvertiser, seedGeo, signIn } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import * as repo from './auth.repo';
import { LIMITS } from './limits';
import { PIN_MAX_ATTEMPTS } from './tokens';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PASSWORD = 'correct horse battery';
const PARALLEL = 200;

/** Addresses no other test (or earlier run against the same Redis) uses. */
const run = crypto.randomBytes(2);

function tally(codes: number[]) {
  const counts: Record<number, number> = {};
  for (const c of codes) counts[c] = (counts[c] ?? 0) + 1;
  return counts;
}

describe.each(['memory', 'redis'] as const)('brute-force limits with the %s limiter', (kind) => {
  let t: TestApp;
  let passwordHash: string;
  const texts: SmsMessage[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    if (kind === 'redis') {
      await t.ctx.limiter.close();
      t.ctx.limiter = new RedisRateLimiter(REDIS_URL, `rl-limits-${crypto.randomBytes(6).toString('hex')}:`);
    }
    t.ctx.sms = { send: async (m) => void texts.push(m) };
    await seedGeo(t.ctx);
    passwordHash = await hashPassword(PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
  });

  const login = (login: string, password: string, remoteAddress: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { login, password }, remoteAddress });

  it(`checks at most ${LIMITS.loginAccount.max} of ${PARALLEL} parallel guesses at one account, the right one among them`, async () => {
    const { account } = await createAdvertiser(t.ctx, { passwordHash });
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        login(account.username, i === 29 ? PASSWORD : `wrong guess ${i}`, `10.${run[0]}.${i}.${run[1]}`),
      ),
    );
    const counts = tally(answers.map((a) => a.statusCode));
    // 422 (wrong) and 200 (right) were checked; 429 were refused before any check.
    expect((counts[422] ?? 0) + (counts[200] ?? 0)).toBeLessThanOrEqual(LIMITS.loginAccount.max);
    expect((counts[422] ?? 0) + (counts[200] ?? 0) + (counts[429] ?? 0)).toBe(PARALLEL);
    // Every refusal is the spec's 429 with a Retry-After.
    const refused = answers.find((a) => a.statusCode === 429)!;
    expect(refused.json()).toEqual({ message: expect.stringMatching(/Too many attempts/) });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it(`checks at most ${LIMITS.loginAddress.max} of ${PARALLEL} parallel guesses from one address`, async () => {
    const address = `10.${run[0]}.${run[1]}.251`;
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => login(`nobody${i}_${run.toString('hex')}`, 'password1234', address)),
    );
    const counts = tally(answers.map((a) => a.statusCode));
    expect(counts[422]).toBeLessThanOrEqual(LIMITS.loginAddress.max);
    expect(counts[429]).toBeGreaterThanOrEqual(PARALLEL - LIMITS.loginAddress.max);
  });

  it('lets 25 people sign in from one shared address, and still locks it after 20 wrong passwords (0102)', async () => {
    const office = `10.${run[0]}.${run[1]}.230`;
    const people = [];
    for (let i = 0; i < 25; i++) people.push((await createAdvertiser(t.ctx, { passwordHash })).account);
    // One after another, as an office or a carrier's shared address sends them: every one gets in.
    const codes = [];
    for (const person of people) codes.push((await login(person.username, PASSWORD, office)).statusCode);
    expect(codes).toEqual(people.map(() => 200));
    // Wrong passwords still count there: 19 now, a success between them changes nothing, the 20th is
    // the last one checked and then the address is locked, right password or not.
    for (let i = 0; i < 19; i++)
      expect((await login(`nobody_${i}_${run.toString('hex')}`, 'wrong one', office)).statusCode).toBe(422);
    expect((await login(people[0].username, PASSWORD, office)).statusCode).toBe(200);
    expect((await login(people[1].username, 'wrong one', office)).statusCode).toBe(422);
    expect((await login(people[2].username, PASSWORD, office)).statusCode).toBe(429);
    expect((await login(people[3].username, 'wrong again', office)).statusCode).toBe(429);
  });

  it('keeps no typed login name in a limiter key', async () => {
    const marker = crypto.randomBytes(8).toString('hex');
    const typed = `typed_${marker}@example.test`;
    expect((await login(typed, 'wrong one', `10.${run[0]}.${run[1]}.231`)).statusCode).toBe(422);
    const keys =
      t.ctx.limiter instanceof RedisRateLimiter
        ? await t.ctx.limiter.redis.keys(`${t.ctx.limiter['prefix']}*`)
        : [...(t.ctx.limiter as unknown as { entries: Map<string, unknown> }).entries.keys()];
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter((k) => k.includes(marker))).toEqual([]);
  });

  const loginWith = (login: string, password: string, remoteAddress: string, kd?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login, password },
      remoteAddress,
      ...(kd ? { cookies: { kd } } : {}),
    });
  const kdOf = (res: { cookies: Array<{ name: string; value: string }> }) =>
    res.cookies.find((c) => c.name === 'kd')?.value;

  it('keeps the account lock for strangers but lets the owner in from a known device or address (0806)', async () => {
    const { account } = await createAdvertiser(t.ctx, { passwordHash });
    const other = await createAdvertiser(t.ctx, { passwordHash });
    const home = `10.${run[0]}.${run[1]}.240`;
    const first = await loginWith(account.username, PASSWORD, home);
    expect(first.statusCode).toBe(200);
    const kd = kdOf(first)!;
    expect(first.cookies.find((c) => c.name === 'kd')).toMatchObject({ httpOnly: true, path: '/api/auth' });
    const otherKd = kdOf(await loginWith(other.account.username, PASSWORD, `10.${run[0]}.${run[1]}.241`))!;

    // Strangers fill the account's lock with wrong passwords from many addresses.
    const wrong = await Promise.all(
      Array.from({ length: 8 }, (_, i) => loginWith(account.email, `wrong ${i}`, `10.${run[0]}.${run[1]}.${200 + i}`)),
    );
    expect(wrong.filter((r) => r.statusCode === 422)).toHaveLength(LIMITS.loginAccount.max);
    // The right password from a new address and a browser that never signed in to it: still locked.
    const stranger = `10.${run[0]}.${run[1]}.242`;
    expect((await loginWith(account.email, PASSWORD, stranger)).statusCode).toBe(429);
    // Another account's device cookie, or a tampered one, does not count as this account's device.
    expect((await loginWith(account.email, PASSWORD, stranger, otherKd)).statusCode).toBe(429);
    const forged = otherKd.replace(/^\d+/, String(account.id));
    expect((await loginWith(account.email, PASSWORD, stranger, forged)).statusCode).toBe(429);
    // The owner's browser gets in from anywhere, and the owner's usual address without the cookie.
    const onTheRoad = await loginWith(account.email, PASSWORD, `10.${run[0]}.${run[1]}.243`, kd);
    expect(onTheRoad.statusCode, onTheRoad.body).toBe(200);
    expect(kdOf(onTheRoad)).toMatch(new RegExp(`^${account.id}\\.`));
    expect((await loginWith(account.email, PASSWORD, home)).statusCode).toBe(200);
    // The lock itself still stands for everyone else.
    expect((await loginWith(account.email, PASSWORD, stranger)).statusCode).toBe(429);
  });

  it(`checks at most ${LIMITS.loginDevice.max} of ${PARALLEL} parallel guesses from a known device`, async () => {
    const { account } = await createAdvertiser(t.ctx, { passwordHash });
    const kd = kdOf(await loginWith(account.username, PASSWORD, `10.${run[0]}.${run[1]}.244`))!;
    // A stolen device cookie: guesses from many addresses count under the device's own limit.
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        loginWith(account.username, `stolen cookie guess ${i}`, `10.${run[0]}.${(i % 250) + 1}.${run[1] ^ 1}`, kd),
      ),
    );
    const counts = tally(answers.map((a) => a.statusCode));
    expect(counts[422]).toBeLessThanOrEqual(LIMITS.loginDevice.max);
    expect(counts[429]).toBeGreaterThanOrEqual(PARALLEL - LIMITS.loginDevice.max);
  });

  it(`checks at most ${LIMITS.reauthAccount.max} parallel guesses of the current password`, async () => {
    const { account } = await createAdvertiser(t.ctx, { passwordHash });
    const session = await signIn(t.app, account.email, PASSWORD, `10.${run[0]}.${run[1]}.252`);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/setNewPassword',
          payload: { current_password: `guess number ${i}`, password: 'my next passphrase' },
          ...session,
        }),
      ),
    );
    const counts = tally(answers.map((a) => a.statusCode));
    expect(counts[422]).toBeLessThanOrEqual(LIMITS.reauthAccount.max);
    expect(counts[429]).toBeGreaterThanOrEqual(50 - LIMITS.reauthAccount.max);
  });

  it(`checks at most ${LIMITS.pinAccount.max} parallel PIN guesses, and the PIN is burned after them`, async () => {
    const { account } = await createAdvertiser(t.ctx, { passwordHash });
    const session = await signIn(t.app, account.email, PASSWORD, `10.${run[0]}.${run[1]}.253`);
    const mobile = `+4917${String(10000000 + Math.floor(Math.random() * 8999999))}`;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/account/${account.id}/mobile`,
      payload: { mobile },
      ...session,
    });
    expect(res.statusCode, res.body).toBe(200);
    const target = (res.json().path as string).split('/')[3];
    const pin = /\b(\d{6})\b/.exec(texts.find((m) => m.to === mobile)!.text)![1];
    const wrong = (i: number) => String((Number(pin) + 1 + i) % 1_000_000).padStart(6, '0');
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/verify',
          payload: { type: 'pin', target, pin: wrong(i) },
          ...session,
        }),
      ),
    );
    const counts = tally(answers.map((a) => a.statusCode));
    expect(counts[422]).toBeLessThanOrEqual(LIMITS.pinAccount.max);
    expect(counts[429]).toBeGreaterThanOrEqual(50 - LIMITS.pinAccount.max);
    // After the window, the right PIN no longer works: five attempts were its own limit too.
    await t.ctx.limiter.reset(`pin:acct:${account.id}`);
    await t.ctx.limiter.reset('pin:ip:127.0.0.1');
    const late = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      payload: { type: 'pin', target, pin },
      ...session,
    });
    expect(late.statusCode).toBe(422);
  });

  it(`lets a PIN take at most ${PIN_MAX_ATTEMPTS} attempts, however many arrive at once`, async () => {
    const { account } = await createAdvertiser(t.ctx, { passwordHash });
    const now = new Date();
    const token = await repo.insertToken(
      t.ctx.db,
      {
        accountId: account.id,
        purpose: 'mobile_pin',
        tokenHash: 'ab'.repeat(32),
        target: '+491700000000',
        expiresAt: new Date(now.getTime() + 60_000),
      },
      now,
    );
    const taken = await Promise.all(
      Array.from({ length: 30 }, () => repo.reserveTokenAttempt(t.ctx.db, token.id, PIN_MAX_ATTEMPTS, now)),
    );
    expect(taken.filter((n) => n !== null).sort()).toEqual([1, 2, 3, 4, 5]);
  });
});
