// The auth flows through the real app, with mail going over a real SMTP server in process.
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountLinks, accounts, auditLog, authTokens, profiles, sessions } from '../../db/schema';
import { CATALOGUE_DIR } from '../../lib/i18n';
import { hashPassword } from '../../lib/password';
import { hashToken } from '../../plugins/session';
import { as, type Requester } from '../../test/as';
import { atClock, hoursFromNow } from '../../test/clock';
import { createAdvertiser, seedGeo, sessionFromResponse, signIn } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { cleanupAuthData } from './session.service';
import { commonPasswordCount } from './password-policy';
import { linkIn, startTestSmtp, type TestSmtp } from '../../test/smtp';

let t: TestApp;
let smtp: TestSmtp;
let seq = 0;
/** A browser without a session, from one address unless a call names another. */
let visitor: Requester;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://directory.example' });
  await seedGeo(t.ctx);
  visitor = as(t, null, { remoteAddress: '10.9.9.9' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** Each test its own client address, so the per-address limits of one test do not leak into another. */
const addr = () => `10.0.${Math.floor(seq / 250)}.${(seq++ % 250) + 1}`;

function newUser() {
  const n = `${Date.now().toString(36)}${seq++}`;
  return {
    email: `u${n}@example.test`,
    username: `user_${n}`,
    password: PASSWORD,
    date_of_birth: '1990-05-17',
    terms: true,
  };
}

async function register(user = newUser(), remoteAddress = addr()) {
  const res = await visitor.post('/api/auth/register', user, { remoteAddress });
  expect(res.statusCode, res.body).toBe(200);
  return { user, res, id: res.json().data.user_id as number, session: sessionFromResponse(res) };
}

describe('register', () => {
  it('creates the account and an empty profile, signs in, and mails a link that verifies the address', async () => {
    const { user, res, id, session } = await register();
    expect(res.json()).toMatchObject({
      data: { user_id: id, username: user.username, role: 'advertiser', complete: false, email_verified: false },
      path: `/edit/${id}?action=complete`,
    });
    const [profile] = await t.ctx.db.select().from(profiles).where(eq(profiles.userId, id));
    expect(profile).toMatchObject({ complete: false, listed: false });

    // The cookie contract: HttpOnly session id, readable CSRF token, SameSite=Lax, whole site.
    const sid = res.cookies.find((c) => c.name === 'sid');
    const csrf = res.cookies.find((c) => c.name === 'csrf');
    expect(sid).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(csrf?.httpOnly).toBeFalsy();
    expect(csrf?.sameSite).toBe('Lax');
    expect(sid?.value).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
    // Stored hashed: the cookie value is not in the table.
    const stored = await t.ctx.db.select().from(sessions).where(eq(sessions.accountId, id));
    expect(stored).toHaveLength(1);
    expect(stored[0].id).toBe(hashToken(sid!.value));

    const mail = await smtp.next(user.email, /confirm your email/i);
    expect(mail.from?.text).toContain('no-reply@localhost');
    expect(mail.html).toContain('https://directory.example/verify/email/');
    const path = linkIn(mail, '/verify/email/');
    const [, , type, target] = path.split('/');
    // The secret is not stored in clear.
    const tokens = await t.ctx.db.select().from(authTokens).where(eq(authTokens.accountId, id));
    expect(JSON.stringify(tokens)).not.toContain(target.split('.')[1]);

    // The browser route /verify/{type}/{target} posts its two segments.
    const verified = await visitor.post('/api/auth/verify', { type, target });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ type: 'notification', icon: 'success' });
    const data = await as(t, session).post('/api/app/getData/x');
    expect(data.json()).toMatchObject({ user_id: id, email_verified: true });
    // A second click is harmless; a forged target is refused.
    expect((await visitor.post('/api/auth/verify', { type, target })).statusCode).toBe(200);
    const forged = await visitor.post('/api/auth/verify', {
      type,
      target: `${target.split('.')[0]}.${'A'.repeat(43)}`,
    });
    expect(forged.statusCode).toBe(422);
  });

  it('dates the account, its profile, session, link and audit line by the app clock', async () => {
    // Eight days ahead: further than a session may lie idle (7 days), had it taken the database's time.
    const at = hoursFromNow(8 * 24);
    const { user, id, session } = await atClock(t.ctx, at, () => register());
    const stamped = async <T extends { createdAt: Date }>(rows: Promise<T[]>) => (await rows).map((r) => r.createdAt);
    expect(await stamped(t.ctx.db.select().from(accounts).where(eq(accounts.id, id)))).toEqual([at]);
    const [profile] = await t.ctx.db.select().from(profiles).where(eq(profiles.userId, id));
    expect([profile.createdAt, profile.updatedAt]).toEqual([at, at]);
    const [stored] = await t.ctx.db.select().from(sessions).where(eq(sessions.accountId, id));
    expect([stored.createdAt, stored.lastSeenAt]).toEqual([at, at]);
    expect(await stamped(t.ctx.db.select().from(authTokens).where(eq(authTokens.accountId, id)))).toEqual([at]);
    expect(await stamped(t.ctx.db.select().from(auditLog).where(eq(auditLog.targetUserId, id)))).toEqual([at]);
    await smtp.next(user.email, /confirm your email/i);
    // Still signed in at that clock: the session's last use is the app's moment, not the database's.
    const me = await atClock(t.ctx, at, () => as(t, session).get(`/api/account/${id}`));
    expect(me.statusCode, me.body).toBe(200);
  });

  it('ignores nothing silently: role, verified or balance in the body are refused and nothing is created', async () => {
    const user = newUser();
    const res = await visitor.post('/api/auth/register', { ...user, role: 'admin', balance: 100000, verified: true });
    expect(res.statusCode).toBe(422);
    expect(JSON.stringify(res.json().errors)).toMatch(/role/);
    const rows = await t.ctx.db.select().from(accounts).where(eq(accounts.email, user.email));
    expect(rows).toHaveLength(0);
    // Registered properly, the account is an advertiser.
    const { id } = await register(user);
    const [row] = await t.ctx.db.select().from(accounts).where(eq(accounts.id, id));
    expect(row.role).toBe('advertiser');
  });

  it('validates with the spec wording, the age, the password policy and uniqueness', async () => {
    const blank = await visitor.post('/api/auth/register', {});
    expect(blank.statusCode).toBe(422);
    expect(blank.json().errors).toMatchObject({
      email: ["Email can't be blank!"],
      username: ["Username can't be blank!"],
      password: ["Password can't be blank!"],
      date_of_birth: ["Date of birth can't be blank!"],
    });
    const today = new Date();
    const seventeen = `${today.getUTCFullYear() - 17}-01-01`;
    const young = await visitor.post('/api/auth/register', { ...newUser(), date_of_birth: seventeen });
    expect(young.json().errors.date_of_birth[0]).toMatch(/at least 18/);
    const short = await visitor.post('/api/auth/register', { ...newUser(), password: 'short' });
    expect(short.json().errors.password[0]).toMatch(/at least 8/);
    const common = await visitor.post(
      '/api/auth/register',
      { ...newUser(), password: 'Password123' },
      { remoteAddress: addr() },
    );
    expect(common.statusCode).toBe(422);
    expect(common.json().errors.password[0]).toMatch(/too common/);
    const terms = await visitor.post('/api/auth/register', { ...newUser(), terms: false });
    expect(terms.json().errors.terms[0]).toMatch(/accept the terms/);

    const { user } = await register();
    const again = await visitor.post(
      '/api/auth/register',
      { ...newUser(), email: user.email.toUpperCase(), username: user.username.toUpperCase() },
      { remoteAddress: addr() },
    );
    expect(again.statusCode).toBe(422);
    expect(again.json().errors).toMatchObject({
      email: ['This email address is already registered.'],
      username: ['This username is already taken.'],
    });
    expect(commonPasswordCount()).toBeGreaterThanOrEqual(10_000);
  });

  it('refuses easily guessed passwords with the reason, in the language of the page (zxcvbn-ts, 0807)', async () => {
    const cases: Array<[string, RegExp]> = [
      ['aaaaaaaa', /repeats characters or words/],
      ['        ', /repeats characters or words/],
      ['Summer2024', /too easy to guess/],
      ['qwertzuiop', /keyboard pattern|too common/],
    ];
    for (const [password, reason] of cases) {
      const res = await visitor.post('/api/auth/register', { ...newUser(), password }, { remoteAddress: addr() });
      expect(res.statusCode, password).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['password']);
      expect(res.json().errors.password[0]).toMatch(reason);
    }
    const de = await visitor.post(
      '/api/auth/register',
      { ...newUser(), password: 'Summer2024' },
      { remoteAddress: addr(), headers: { 'x-language': 'de' } },
    );
    expect(de.json().errors.password).toEqual([
      'Dieses Passwort ist zu leicht zu erraten. Bitte mach es länger, zum Beispiel mit ein paar weniger gebräuchlichen Wörtern.',
    ]);
    const es = await visitor.post(
      '/api/auth/register',
      { ...newUser(), password: 'aaaaaaaa' },
      { remoteAddress: addr(), headers: { 'x-language': 'es' } },
    );
    expect(es.json().errors.password[0]).toMatch(/repite caracteres/);
    // A password made of a few uncommon words passes.
    const fine = await visitor.post(
      '/api/auth/register',
      { ...newUser(), password: 'velvet harbour lantern' },
      { remoteAddress: addr() },
    );
    expect(fine.statusCode, fine.body).toBe(200);
  });

  it('limits registrations naming one email address or username, from any address (0807)', async () => {
    const { user } = await register();
    // Probing whether this email is registered, from six addresses: the sixth is refused before the answer.
    const probes = [];
    for (let i = 0; i < 6; i++) {
      probes.push(
        await visitor.post(
          '/api/auth/register',
          { ...newUser(), email: user.email.toUpperCase() },
          { remoteAddress: addr() },
        ),
      );
    }
    // Its own registration was the first of the five in this hour.
    expect(probes.map((r) => r.statusCode)).toEqual([422, 422, 422, 422, 429, 429]);
    expect(probes.slice(0, 4).every((r) => r.json().errors.email)).toBe(true);
    expect(probes[5].json()).toEqual({ message: expect.stringMatching(/Too many attempts/) });
    expect(probes[5].body).not.toContain('already registered');
    // The same for a username.
    const byName = [];
    for (let i = 0; i < 6; i++) {
      byName.push(
        (await visitor.post('/api/auth/register', { ...newUser(), username: user.username }, { remoteAddress: addr() }))
          .statusCode,
      );
    }
    expect(byName).toEqual([422, 422, 422, 422, 429, 429]);
    // Other names are not affected.
    await register();
  });
});

describe('login and logout', () => {
  it('sends an admin home after sign-in, never to the completion screen (docs/decisions/0007)', async () => {
    const { user, id } = await register();
    await t.ctx.db.update(accounts).set({ role: 'admin' }).where(eq(accounts.id, id));
    const res = await visitor.post(
      '/api/auth/login',
      { login: user.email, password: PASSWORD },
      { remoteAddress: addr() },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ data: { user_id: id, role: 'admin', complete: false }, path: '/' });
  });

  it('signs in by email or username, rotates the session, and signs out', async () => {
    const { user, id, session: first } = await register();
    const byName = await visitor.post(
      '/api/auth/login',
      { login: user.username.toUpperCase(), password: PASSWORD },
      { ...first },
    );
    expect(byName.statusCode, byName.body).toBe(200);
    const second = sessionFromResponse(byName);
    expect(second.cookies.sid).not.toBe(first.cookies.sid);
    // The session the browser had is gone.
    const old = await as(t, first).post('/api/app/getData/x');
    expect(old.statusCode).toBe(401);

    const byEmail = await visitor.post('/api/auth/login', { login: user.email, password: PASSWORD });
    expect(byEmail.json()).toMatchObject({ data: { user_id: id }, path: `/edit/${id}?action=complete` });
    const third = sessionFromResponse(byEmail);

    const out = await as(t, third).post('/api/auth/logout');
    expect(out.json()).toEqual({ data: '/' });
    expect(out.cookies.find((c) => c.name === 'sid')?.value).toBe('');
    expect((await as(t, third).post('/api/app/getData/x')).statusCode).toBe(401);
    // Still signed in elsewhere.
    expect((await as(t, second).post('/api/app/getData/x')).statusCode).toBe(200);
  });

  it('answers the same for an unknown account and a wrong password', async () => {
    const { user } = await register();
    const wrong = await visitor.post(
      '/api/auth/login',
      { login: user.email, password: 'not the password' },
      { remoteAddress: addr() },
    );
    const unknown = await visitor.post(
      '/api/auth/login',
      { login: 'nobody@example.test', password: 'not the password' },
      { remoteAddress: addr() },
    );
    expect(wrong.statusCode).toBe(422);
    expect(unknown.statusCode).toBe(422);
    expect(wrong.json()).toEqual(unknown.json());
  });

  it('stops brute force on one account with 429, from any address, and lets the owner in after the window', async () => {
    const { user, id } = await register();
    for (let i = 0; i < 5; i++) {
      const res = await visitor.post(
        '/api/auth/login',
        { login: user.username, password: `wrong-${i}` },
        { remoteAddress: addr() },
      );
      expect(res.statusCode).toBe(422);
    }
    // The right password from a fresh address: the account is locked for the window anyway.
    const blocked = await visitor.post(
      '/api/auth/login',
      { login: user.email, password: PASSWORD },
      { remoteAddress: addr() },
    );
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/Too many attempts/);
    // The client (or a script) is told when to come back.
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    await t.ctx.limiter.reset(`login:acct:id:${id}`);
    expect(
      (await visitor.post('/api/auth/login', { login: user.email, password: PASSWORD }, { remoteAddress: addr() }))
        .statusCode,
    ).toBe(200);
  });

  it('stops one address trying many accounts with 429', async () => {
    const address = addr();
    let last = 0;
    for (let i = 0; i < 21; i++) {
      last = (
        await visitor.post(
          '/api/auth/login',
          { login: `guess${i}@example.test`, password: 'password1234' },
          { remoteAddress: address },
        )
      ).statusCode;
    }
    expect(last).toBe(429);
    // Another address is not affected.
    const other = await visitor.post(
      '/api/auth/login',
      { login: 'guess@example.test', password: 'password1234' },
      { remoteAddress: addr() },
    );
    expect(other.statusCode).toBe(422);
  });

  it('refuses a suspended account after a correct password only', async () => {
    const passwordHash = await hashPassword(PASSWORD);
    const { account } = await createAdvertiser(t.ctx, { passwordHash });
    await t.ctx.db.update(accounts).set({ status: 'suspended' }).where(eq(accounts.id, account.id));
    expect(
      (
        await visitor.post(
          '/api/auth/login',
          { login: account.email, password: 'wrong password' },
          { remoteAddress: addr() },
        )
      ).statusCode,
    ).toBe(422);
    const res = await visitor.post(
      '/api/auth/login',
      { login: account.email, password: PASSWORD },
      { remoteAddress: addr() },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/suspended/);
  });

  it('guards the session-less calls against login CSRF: JSON only, no cross-site origin', async () => {
    const { user } = await register();
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `login=${user.username}&password=${encodeURIComponent(PASSWORD)}`,
    });
    expect(form.statusCode).toBe(415);
    const text = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ login: user.username, password: PASSWORD }),
    });
    expect(text.statusCode).toBe(415);
    const cross = await visitor.post(
      '/api/auth/login',
      { login: user.username, password: PASSWORD },
      { headers: { origin: 'https://evil.example' } },
    );
    expect(cross.statusCode).toBe(403);
    const fetchMeta = await visitor.post(
      '/api/auth/login',
      { login: user.username, password: PASSWORD },
      { headers: { 'sec-fetch-site': 'cross-site' } },
    );
    expect(fetchMeta.statusCode).toBe(403);
    const same = await visitor.post(
      '/api/auth/login',
      { login: user.username, password: PASSWORD },
      { headers: { origin: 'http://localhost:80', host: 'localhost:80', 'sec-fetch-site': 'same-origin' } },
    );
    expect(same.statusCode, same.body).toBe(200);
  });

  it('signed-in calls need the CSRF header', async () => {
    const { session } = await register();
    const without = await t.app.inject({ method: 'POST', url: '/api/app/ping', cookies: session.cookies });
    expect(without.statusCode).toBe(403);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/app/ping',
      cookies: session.cookies,
      headers: { 'x-csrf-token': 'x'.repeat(43) },
    });
    expect(wrong.statusCode).toBe(403);
    const ok = await as(t, session).post('/api/app/ping');
    expect(ok.statusCode).toBe(200);
  });
});

describe("mails in the recipient's language (issue 13)", () => {
  const catalogue = (lang: string) =>
    JSON.parse(fs.readFileSync(path.join(CATALOGUE_DIR, lang, 'mail.json'), 'utf8')) as Record<
      string,
      string | Record<string, string>
    >;
  const en = catalogue('en');
  const text = (c: ReturnType<typeof catalogue>, key: string) => {
    const [a, b] = key.split('.');
    return (b ? (c[a] as Record<string, string>)[b] : c[a]) as string;
  };

  for (const [lang, how] of [
    ['de', { headers: { host: 'de.directory.example' } }],
    ['es', { headers: { 'x-language': 'es' } }],
    ['en', {}],
  ] as const) {
    it(`${lang}: the page's language is stored on the account and its mails are written in it`, async () => {
      const c = catalogue(lang);
      const user = newUser();
      const res = await visitor.post('/api/auth/register', user, { remoteAddress: addr(), ...how });
      expect(res.statusCode, res.body).toBe(200);
      const id = res.json().data.user_id as number;
      expect(res.json().data.language).toBe(lang);
      const [row] = await t.ctx.db.select({ language: accounts.language }).from(accounts).where(eq(accounts.id, id));
      expect(row.language).toBe(lang);

      const verify = await smtp.next(user.email);
      expect(verify.subject).toBe(text(c, 'verifyEmail.subject'));
      expect(verify.text).toContain(text(c, 'greeting').replace('{{name}}', user.username));
      expect(verify.text).toContain(`${text(c, 'verifyEmail.link')}: https://directory.example/verify/email/`);
      expect(verify.text).toContain(text(c, 'automatic'));
      expect(verify.html).toContain(text(c, 'verifyEmail.body'));
      if (lang !== 'en') {
        // Not a word of the English mail.
        for (const key of ['verifyEmail.subject', 'verifyEmail.body', 'verifyEmail.link', 'automatic'])
          expect(verify.text).not.toContain(text(en, key));
      }

      // A mail sent later, from a request in another language, still follows the account.
      const forgot = await visitor.post(
        '/api/auth/forgotPassword',
        { email: user.email },
        { remoteAddress: addr(), headers: { 'x-language': lang === 'en' ? 'de' : 'en' } },
      );
      expect(forgot.statusCode).toBe(200);
      const reset = await smtp.next(user.email);
      expect(reset.subject).toBe(text(c, 'resetPassword.subject'));
      expect(reset.text).toContain(text(c, 'resetPassword.ignore'));
    });
  }

  it('the language switcher changes the language of the next mail; Portuguese is written in Portuguese', async () => {
    const { user, id, session } = await register();
    await smtp.next(user.email);
    const saved = await as(t, session).post(`/api/account/${id}/language`, { language: 'pt' });
    expect(saved.statusCode, saved.body).toBe(200);
    await visitor.post('/api/auth/forgotPassword', { email: user.email }, { remoteAddress: addr() });
    const reset = await smtp.next(user.email);
    expect(reset.subject).toBe(text(catalogue('pt'), 'resetPassword.subject'));
    expect(reset.subject).toBe('Redefina sua senha');
  });
});

describe('forgot and reset password', () => {
  it('mails a single-use link; the new password works, the old one and the used link do not', async () => {
    const { user, id, session } = await register();
    await smtp.next(user.email, /confirm/i);
    const res = await visitor.post(
      '/api/auth/forgotPassword',
      { email: user.email.toUpperCase() },
      { remoteAddress: addr() },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ type: 'notification' });
    const unknown = await visitor.post(
      '/api/auth/forgotPassword',
      { email: 'nobody-here@example.test' },
      { remoteAddress: addr() },
    );
    expect(unknown.json()).toEqual(res.json());

    const mail = await smtp.next(user.email, /reset your password/i);
    const [, , tokenId, hash] = linkIn(mail, '/recover/').split('/');
    const check = await visitor.post('/api/recover', { id: tokenId, hash });
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json().data.valid).toBe(true);
    expect(new Date(check.json().data.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(3600_000);

    // A refused password does not use the link up.
    const weak = await visitor.post('/api/auth/resetPassword', { id: tokenId, hash, password: 'iloveyou1' });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().errors.password[0]).toMatch(/too common/);
    const guessable = await visitor.post('/api/auth/resetPassword', { id: tokenId, hash, password: 'Summer2024' });
    expect(guessable.json().errors).toEqual({ password: [expect.stringMatching(/too easy to guess/)] });

    const NEW = 'a brand new passphrase';
    const reset = await visitor.post('/api/auth/resetPassword', { id: tokenId, hash, password: NEW });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toMatchObject({ type: 'notification', path: '/login' });
    await smtp.next(user.email, /password was changed/i);

    // Every session ended; the old password is refused, the new one works.
    expect((await as(t, session).post('/api/app/getData/x')).statusCode).toBe(401);
    expect(
      (await visitor.post('/api/auth/login', { login: user.email, password: PASSWORD }, { remoteAddress: addr() }))
        .statusCode,
    ).toBe(422);
    const login = await visitor.post(
      '/api/auth/login',
      { login: user.email, password: NEW },
      { remoteAddress: addr() },
    );
    expect(login.statusCode).toBe(200);
    expect(login.json().data).toMatchObject({ user_id: id, email_verified: true });

    // The link worked once.
    const again = await visitor.post('/api/auth/resetPassword', {
      id: tokenId,
      hash,
      password: 'another new passphrase',
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.hash[0]).toMatch(/invalid or has expired/);
    expect((await visitor.post('/api/recover', { id: tokenId, hash })).statusCode).toBe(422);
  });

  it('a link expires after one hour and a newer link retires the older', async () => {
    const { user } = await register();
    await visitor.post('/api/auth/forgotPassword', { email: user.email }, { remoteAddress: addr() });
    const first = linkIn(await smtp.next(user.email, /reset/i), '/recover/').split('/');
    await visitor.post('/api/auth/forgotPassword', { email: user.email }, { remoteAddress: addr() });
    const second = linkIn(await smtp.next(user.email, /reset/i), '/recover/').split('/');
    expect((await visitor.post('/api/recover', { id: first[2], hash: first[3] })).statusCode).toBe(422);
    expect((await visitor.post('/api/recover', { id: second[2], hash: second[3] })).statusCode).toBe(200);
    await t.ctx.db
      .update(authTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authTokens.id, Number(second[2])));
    expect((await visitor.post('/api/recover', { id: second[2], hash: second[3] })).statusCode).toBe(422);
  });

  it('limits reset mails per address with 429, whether the account exists or not', async () => {
    const email = `flood${seq++}@example.test`;
    const codes = [];
    for (let i = 0; i < 4; i++)
      codes.push((await visitor.post('/api/auth/forgotPassword', { email }, { remoteAddress: addr() })).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
  });

  it('answers known and unknown addresses alike (timing is measured in bench/auth-timing.bench.ts)', async () => {
    const { user } = await register();
    const answer = async (email: string) => {
      const res = await visitor.post('/api/auth/forgotPassword', { email }, { remoteAddress: addr() });
      return { status: res.statusCode, body: res.json(), cookies: res.headers['set-cookie'] ?? null };
    };
    await t.ctx.limiter.reset(`forgot:email:${user.email}`);
    const known = await answer(user.email);
    const unknown = await answer(`nobody${seq++}@example.test`);
    expect(unknown).toEqual(known);
    // Only the real address gets a mail.
    await smtp.next(user.email, /reset/i);
  });
});

describe('setNewPassword (signed in)', () => {
  it('needs the current password, keeps this session and ends the others', async () => {
    const { user, session } = await register();
    const other = await signIn(t.app, user.email, PASSWORD, addr());
    const wrong = await as(t, session).post('/api/auth/setNewPassword', {
      current_password: 'not it at all',
      password: 'my next passphrase',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.current_password).toEqual(['The current password is not correct.']);
    const weak = await as(t, session).post('/api/auth/setNewPassword', {
      current_password: PASSWORD,
      password: 'aaaaaaaa',
    });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().errors).toEqual({ password: [expect.stringMatching(/repeats characters/)] });
    const ok = await as(t, session).post('/api/auth/setNewPassword', {
      current_password: PASSWORD,
      password: 'my next passphrase',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await as(t, session).post('/api/app/getData/x')).statusCode).toBe(200);
    expect((await as(t, other).post('/api/app/getData/x')).statusCode).toBe(401);
    const mail = await smtp.next(user.email, /password was changed/i);
    expect(mail.text).toMatch(/every other session/);
  });

  it('stops guessing of the current password with 429', async () => {
    const { session } = await register();
    const codes = [];
    for (let i = 0; i < 6; i++) {
      const res = await as(t, session).post('/api/auth/setNewPassword', {
        current_password: `guess number ${i}`,
        password: 'my next passphrase',
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([422, 422, 422, 422, 422, 429]);
  });
});

describe('connect and switch', () => {
  it('links an account proven by its password, both ways, and switches without a password', async () => {
    const a = await register();
    const b = await register();
    const wrong = await as(t, a.session).post('/api/auth/connect', { login: b.user.email, password: 'not b password' });
    expect(wrong.statusCode).toBe(422);
    const self = await as(t, a.session).post('/api/auth/connect', { login: a.user.email, password: PASSWORD });
    expect(self.statusCode).toBe(422);

    const res = await as(t, a.session).post('/api/auth/connect', { login: b.user.username, password: PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([{ user_id: b.id, username: b.user.username, screen_name: null }]);
    const rows = await t.ctx.db.select().from(accountLinks).where(eq(accountLinks.accountId, b.id));
    expect(rows.map((r) => r.linkedAccountId)).toEqual([a.id]);

    const sw = await as(t, a.session).post('/api/auth/switch', { user_id: b.id });
    expect(sw.statusCode, sw.body).toBe(200);
    expect(sw.json().data.user_id).toBe(b.id);
    const asB = sessionFromResponse(sw);
    expect(asB.cookies.sid).not.toBe(a.session.cookies.sid);
    // The old session is gone (rotated), the new one is B.
    expect((await as(t, a.session).post('/api/app/getData/x')).statusCode).toBe(401);
    expect((await as(t, asB).post('/api/app/getData/x')).json().user_id).toBe(b.id);
    const links = await as(t, asB).get('/api/auth/links');
    expect(links.json().data.map((l: { user_id: number }) => l.user_id)).toEqual([a.id]);
    // And back.
    const back = await as(t, asB).post('/api/auth/switch', { user_id: a.id });
    expect(back.json().data.user_id).toBe(a.id);
  });

  it('refuses a switch to an account that is not linked', async () => {
    const a = await register();
    const { account: c } = await createAdvertiser(t.ctx);
    const res = await as(t, a.session).post('/api/auth/switch', { user_id: c.id });
    expect(res.statusCode).toBe(403);
    expect((await as(t, a.session).post('/api/app/getData/x')).json().user_id).toBe(a.id);
  });
});

describe('a change of password or email, a reset or a deletion ends every way into the account', () => {
  type Session = ReturnType<typeof sessionFromResponse>;

  const changes: Record<string, (victim: Awaited<ReturnType<typeof register>>) => Promise<Session | null>> = {
    'password change': async (v) => {
      const res = await as(t, v.session).post('/api/auth/setNewPassword', {
        current_password: PASSWORD,
        password: 'my next passphrase',
      });
      expect(res.statusCode, res.body).toBe(200);
      return v.session;
    },
    'password reset': async (v) => {
      await visitor.post('/api/auth/forgotPassword', { email: v.user.email }, { remoteAddress: addr() });
      const [, , id, hash] = linkIn(await smtp.next(v.user.email, /reset your password/i), '/recover/').split('/');
      const res = await visitor.post('/api/auth/resetPassword', { id, hash, password: 'a brand new passphrase' });
      expect(res.statusCode, res.body).toBe(200);
      return null;
    },
    'email change': async (v) => {
      const email = `moved_${v.user.username}@example.test`;
      const res = await as(t, v.session).post(`/api/account/${v.id}/email`, { email, current_password: PASSWORD });
      expect(res.statusCode, res.body).toBe(200);
      const [, , type, target] = linkIn(await smtp.next(email, /confirm your new email/i), '/verify/email/').split('/');
      // Opened in the owner's signed-in browser: that session stays.
      const opened = await as(t, v.session).post('/api/auth/verify', { type, target });
      expect(opened.statusCode, opened.body).toBe(200);
      return v.session;
    },
    deletion: async (v) => {
      const res = await as(t, v.session).post(`/api/account/${v.id}/delete`, { current_password: PASSWORD });
      expect(res.statusCode, res.body).toBe(200);
      return null;
    },
  };

  it.each(Object.keys(changes))('%s: linked accounts lose their link, other sessions end', async (change) => {
    const victim = await register();
    const attacker = await register();
    // The attacker once knew the victim's password: linked the account, and kept a session of it.
    const connected = await as(t, attacker.session).post('/api/auth/connect', {
      login: victim.user.email,
      password: PASSWORD,
    });
    expect(connected.statusCode, connected.body).toBe(200);
    const stolen = await signIn(t.app, victim.user.email, PASSWORD, addr());
    const switched = await as(t, attacker.session).post('/api/auth/switch', { user_id: victim.id });
    expect(switched.statusCode, switched.body).toBe(200);
    const intoVictim = sessionFromResponse(switched);
    // A second browser of the attacker's, signed in to the attacker's own account.
    const attackerNow = await signIn(t.app, attacker.user.email, PASSWORD, addr());

    const kept = await changes[change](victim);

    for (const s of [stolen, intoVictim]) expect((await as(t, s).post('/api/app/getData/x')).statusCode).toBe(401);
    if (kept) expect((await as(t, kept).post('/api/app/getData/x')).json().user_id).toBe(victim.id);
    // The attacker's own account is still signed in, but no longer reaches the victim's.
    const links = await as(t, attackerNow).get('/api/auth/links');
    expect(links.statusCode).toBe(200);
    expect(links.json().data).toEqual([]);
    expect((await as(t, attackerNow).post('/api/auth/switch', { user_id: victim.id })).statusCode).toBe(403);
    expect((await as(t, attackerNow).get(`/api/account/${victim.id}`)).statusCode).toBe(403);
    const rows = await t.ctx.db.select().from(accountLinks).where(eq(accountLinks.linkedAccountId, victim.id));
    expect(rows).toEqual([]);
  });
});

describe('online ping', () => {
  it('records last seen at most once a minute', async () => {
    const { id, session } = await register();
    const first = await as(t, session).post('/api/app/ping');
    expect(first.json()).toEqual({ data: { online: true, recorded: true } });
    const second = await as(t, session).post('/api/app/ping');
    expect(second.json().data.recorded).toBe(false);
    const [row] = await t.ctx.db.select({ seen: accounts.lastSeenAt }).from(accounts).where(eq(accounts.id, id));
    expect(Date.now() - row.seen!.getTime()).toBeLessThan(60_000);
    await t.ctx.db
      .update(accounts)
      .set({ lastSeenAt: new Date(Date.now() - 61_000) })
      .where(eq(accounts.id, id));
    expect((await as(t, session).post('/api/app/ping')).json().data.recorded).toBe(true);
    expect((await as(t).post('/api/app/ping')).statusCode).toBe(401);
  });
});

describe('cleanupAuthData', () => {
  it('removes expired sessions and tokens dead for over a week, and keeps live ones', async () => {
    const { id, session } = await register();
    const later = new Date(Date.now() + 31 * 86_400_000);
    const result = await cleanupAuthData(t.ctx, later);
    expect(result.sessions).toBeGreaterThanOrEqual(1);
    expect(await t.ctx.db.select().from(sessions).where(eq(sessions.accountId, id))).toHaveLength(0);
    expect(await t.ctx.db.select().from(authTokens).where(eq(authTokens.accountId, id))).toHaveLength(0);
    expect(session.cookies.sid).toBeTruthy();
    const { id: fresh } = await register();
    await cleanupAuthData(t.ctx);
    expect(await t.ctx.db.select().from(sessions).where(eq(sessions.accountId, fresh))).toHaveLength(1);
  });
});

describe('declared answers (issue 7, item 3)', () => {
  interface Operation {
    responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  }

  it('every auth and account call names its answer per status in /api/docs.json', async () => {
    const doc = (await as(t).get('/api/docs.json')).json<{
      paths: Record<string, Record<string, Operation>>;
    }>();
    const ours = Object.entries(doc.paths).filter(([p]) => /^\/api\/(auth\/|recover$|account\/)/.test(p));
    expect(ours.length).toBeGreaterThanOrEqual(15);
    const undeclared: string[] = [];
    for (const [p, methods] of ours)
      for (const [method, op] of Object.entries(methods))
        for (const status of ['200', '401', '403', '422', '429'])
          if (!op.responses?.[status]?.content?.['application/json']?.schema)
            undeclared.push(`${method} ${p} ${status}`);
    expect(undeclared).toEqual([]);
  });

  it('sends the columns the schema names and nothing else, and keyed messages in the page language', async () => {
    const { id, session } = await register();
    const res = await as(t, session).get(`/api/account/${id}`);
    expect(Object.keys(res.json().data).sort()).toEqual(
      [
        'user_id',
        'email',
        'email_verified',
        'pending_email',
        'mobile',
        'mobile_verified',
        'pending_mobile',
        'username',
        'role',
        'created_at',
      ].sort(),
    );
    const wrong = await visitor.post(
      '/api/auth/login',
      { login: 'nobody@example.test', password: 'wrong password here' },
      { remoteAddress: addr(), headers: { 'x-language': 'es' } },
    );
    expect(wrong.json()).toEqual({
      message: 'Por favor, revisa lo que has introducido.',
      errors: { login: ['Estos datos de acceso no coinciden con nuestros registros.'] },
    });
  });
});
