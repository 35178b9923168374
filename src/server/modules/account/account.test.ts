// The account screen's calls: email (re-auth + link to the new address), mobile (PIN by SMS),
// password, username, delete, and the purge of deleted accounts.
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountLinks, accounts, auditLog, listings, media, payments, profiles, sessions } from '../../db/schema';
import { hashPassword } from '../../lib/password';
import { as } from '../../test/as';
import { createAdvertiser, seedGeo, signIn } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { linkIn, startTestSmtp, type TestSmtp } from '../../test/smtp';
import { purgeDeletedAccounts } from './account.purge';

let t: TestApp;
let smtp: TestSmtp;
let passwordHash: string;
let seq = 0;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url });
  await seedGeo(t.ctx);
  passwordHash = await hashPassword(PASSWORD);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const addr = () => `10.1.${Math.floor(seq / 250)}.${(seq++ % 250) + 1}`;

async function advertiser(role: 'advertiser' | 'admin' = 'advertiser') {
  const { account } = await createAdvertiser(t.ctx, { passwordHash, role });
  const session = await signIn(t.app, account.email, PASSWORD, addr());
  return { account, session };
}

/** The account screen's calls come from one address, apart from the sign-in limiter's (addr()). */
const SCREEN = { remoteAddress: '10.1.255.1' };

function smsTo(mobile: string): Array<{ to: string; text: string }> {
  const dir = path.join(t.dataDir, 'outbox');
  return fs
    .readdirSync(dir)
    .filter((f) => f.startsWith('sms-'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')))
    .filter((m) => m.to === mobile);
}

describe('GET /account/{id}', () => {
  it('shows the owner and admins the account, others get 403 and visitors 401', async () => {
    const { account, session } = await advertiser();
    const res = await as(t, session, SCREEN).get(`/api/account/${account.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      user_id: account.id,
      email: account.email,
      username: account.username,
      email_verified: true,
    });
    expect(JSON.stringify(res.json())).not.toMatch(/password|hash/i);
    const other = await advertiser();
    expect((await as(t, other.session, SCREEN).get(`/api/account/${account.id}`)).statusCode).toBe(403);
    expect((await as(t, null, SCREEN).get(`/api/account/${account.id}`)).statusCode).toBe(401);
    const admin = await advertiser('admin');
    expect((await as(t, admin.session, SCREEN).get(`/api/account/${account.id}`)).statusCode).toBe(200);
  });
});

describe('change email', () => {
  it('needs the current password, mails the new address and switches only when its link is opened', async () => {
    const { account, session } = await advertiser();
    const newEmail = `moved${seq++}@example.test`;
    const wrong = await as(t, session, SCREEN).post(`/api/account/${account.id}/email`, {
      email: newEmail,
      current_password: 'not my password',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.current_password).toBeDefined();

    const res = await as(t, session, SCREEN).post(`/api/account/${account.id}/email`, {
      email: newEmail.toUpperCase(),
      current_password: PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ type: 'notification' });
    const view = await as(t, session, SCREEN).get(`/api/account/${account.id}`);
    expect(view.json().data).toMatchObject({ email: account.email, pending_email: newEmail });

    const warning = await smtp.next(account.email, /about to change/i);
    expect(warning.text).toMatch(/change your password/);
    const mail = await smtp.next(newEmail, /confirm your new email/i);
    const [, , type, target] = linkIn(mail, '/verify/email/').split('/');
    const verified = await as(t, null, SCREEN).post('/api/auth/verify', { type, target });
    expect(verified.statusCode, verified.body).toBe(200);
    const [row] = await t.ctx.db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(row.email).toBe(newEmail);
    await smtp.next(account.email, /was changed/i);
    // The new address signs in.
    await signIn(t.app, newEmail, PASSWORD, addr());
  });

  it('refuses an address another account uses', async () => {
    const { account, session } = await advertiser();
    const other = await advertiser();
    const res = await as(t, session, SCREEN).post(`/api/account/${account.id}/email`, {
      email: other.account.email,
      current_password: PASSWORD,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email).toEqual(['This email address is already registered.']);
  });
});

describe('change mobile with a PIN', () => {
  it('texts a 6-digit PIN; the PIN entered at /verify/pin/{hash} confirms the number', async () => {
    const { account, session } = await advertiser();
    const bad = await as(t, session, SCREEN).post(`/api/account/${account.id}/mobile`, { mobile: '0171 2345678' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.mobile[0]).toMatch(/international format, starting with \+/);

    const mobile = `+49 171 ${String(1000000 + seq++)}`;
    const res = await as(t, session, SCREEN).post(`/api/account/${account.id}/mobile`, { mobile });
    expect(res.statusCode, res.body).toBe(200);
    const pathTo = res.json().path as string;
    expect(pathTo).toMatch(/^\/verify\/pin\/\d+\.[A-Za-z0-9_-]+$/);
    const normalized = mobile.replace(/\s/g, '');
    const [sms] = smsTo(normalized);
    const pin = /\b(\d{6})\b/.exec(sms.text)?.[1];
    expect(pin).toMatch(/^\d{6}$/);
    const hash = pathTo.split('/')[3];

    // Only the account it was sent for can use it.
    const stranger = await advertiser();
    const foreign = await as(t, stranger.session, SCREEN).post('/api/auth/verify', { type: 'pin', target: hash, pin });
    expect(foreign.statusCode).toBe(422);
    expect((await as(t, null, SCREEN).post('/api/auth/verify', { type: 'pin', target: hash, pin })).statusCode).toBe(
      401,
    );

    const ok = await as(t, session, SCREEN).post('/api/auth/verify', { type: 'pin', target: hash, pin });
    expect(ok.statusCode, ok.body).toBe(200);
    const [row] = await t.ctx.db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(row.mobile).toBe(normalized);
    expect(row.mobileVerifiedAt).not.toBeNull();
    // Single use.
    expect((await as(t, session, SCREEN).post('/api/auth/verify', { type: 'pin', target: hash, pin })).statusCode).toBe(
      422,
    );
  });

  it('stops PIN guessing with 429 and burns the PIN', async () => {
    const { account, session } = await advertiser();
    const mobile = `+4917${String(10000000 + seq++)}`;
    const res = await as(t, session, SCREEN).post(`/api/account/${account.id}/mobile`, { mobile });
    const hash = (res.json().path as string).split('/')[3];
    const pin = /\b(\d{6})\b/.exec(smsTo(mobile)[0].text)![1];
    const wrongPin = pin === '000000' ? '111111' : '000000';
    const codes = [];
    for (let i = 0; i < 6; i++)
      codes.push(
        (await as(t, session, SCREEN).post('/api/auth/verify', { type: 'pin', target: hash, pin: wrongPin }))
          .statusCode,
      );
    expect(codes).toEqual([422, 422, 422, 422, 422, 429]);
    const blocked = await as(t, session, SCREEN).post('/api/auth/verify', { type: 'pin', target: hash, pin });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/Too many attempts/);
    // After the window the right PIN is still refused: five wrong guesses burned it.
    await t.ctx.limiter.reset(`pin:acct:${account.id}`);
    const burned = await as(t, session, SCREEN).post('/api/auth/verify', { type: 'pin', target: hash, pin });
    expect(burned.statusCode).toBe(422);
    expect(burned.json().errors.pin[0]).toMatch(/expired/);
  });

  it('limits the texts an account can ask for', async () => {
    const { account, session } = await advertiser();
    const codes = [];
    for (let i = 0; i < 6; i++)
      codes.push(
        (
          await as(t, session, SCREEN).post(`/api/account/${account.id}/mobile`, {
            mobile: `+4415${String(1000000 + i)}`,
          })
        ).statusCode,
      );
    expect(codes).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe('password and username', () => {
  it('changes the password after re-authentication', async () => {
    const { account, session } = await advertiser();
    // An easily guessed new password is refused with the reason, under its field (0807).
    const weak = await as(t, session, SCREEN).post(`/api/account/${account.id}/password`, {
      current_password: PASSWORD,
      password: 'Summer2024',
    });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().errors).toEqual({ password: [expect.stringMatching(/too easy to guess/)] });
    const res = await as(t, session, SCREEN).post(`/api/account/${account.id}/password`, {
      current_password: PASSWORD,
      password: 'another fine passphrase',
    });
    expect(res.statusCode, res.body).toBe(200);
    await signIn(t.app, account.email, 'another fine passphrase', addr());
    const same = await as(t, session, SCREEN).post(`/api/account/${account.id}/password`, {
      current_password: 'another fine passphrase',
      password: 'another fine passphrase',
    });
    expect(same.statusCode).toBe(422);
  });

  it('changes the username when free, and writes the audit log', async () => {
    const { account, session } = await advertiser();
    const other = await advertiser();
    const taken = await as(t, session, SCREEN).post(`/api/account/${account.id}/username`, {
      username: other.account.username.toUpperCase(),
    });
    expect(taken.statusCode).toBe(422);
    const name = `renamed_${seq++}`;
    const res = await as(t, session, SCREEN).post(`/api/account/${account.id}/username`, { username: name });
    expect(res.statusCode, res.body).toBe(200);
    await signIn(t.app, name, PASSWORD, addr());
    const log = await t.ctx.db.select().from(auditLog).where(eq(auditLog.targetUserId, account.id));
    expect(log.map((l) => l.action)).toContain('account.username_changed');
  });

  it('cannot set role or other fields through the account calls', async () => {
    const { account, session } = await advertiser();
    const res = await as(t, session, SCREEN).post(`/api/account/${account.id}/username`, {
      username: `x_${seq++}`,
      role: 'admin',
    });
    expect(res.statusCode).toBe(422);
    const [row] = await t.ctx.db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(row.role).toBe('advertiser');
  });

  it("refuses another advertiser's account with 403, but lets an admin act with the admin's password", async () => {
    const victim = await advertiser();
    const attacker = await advertiser();
    const res = await as(t, attacker.session, SCREEN).post(`/api/account/${victim.account.id}/password`, {
      current_password: PASSWORD,
      password: 'owned by attacker!',
    });
    expect(res.statusCode).toBe(403);
    const admin = await advertiser('admin');
    const byAdmin = await as(t, admin.session, SCREEN).post(`/api/account/${victim.account.id}/username`, {
      username: `by_admin_${seq++}`,
    });
    expect(byAdmin.statusCode).toBe(200);
  });
});

describe('delete and purge', () => {
  it('marks the account deleted, hides the profile, ends sessions; the purge removes it after 14 days', async () => {
    const { account, session } = await advertiser();
    const other = await advertiser();
    await t.ctx.db.insert(accountLinks).values([
      { accountId: account.id, linkedAccountId: other.account.id },
      { accountId: other.account.id, linkedAccountId: account.id },
    ]);
    await t.ctx.media.put('public', `u/${account.id}/avatar.webp`, Buffer.from('img'), 'image/webp');
    await t.ctx.media.put('public', `u/${account.id}/avatar-320.webp`, Buffer.from('img'), 'image/webp');
    await t.ctx.db.insert(media).values({
      userId: account.id,
      type: 'avatar',
      storageKey: `u/${account.id}/avatar.webp`,
      variants: { '320': `u/${account.id}/avatar-320.webp` },
      mime: 'image/webp',
    });

    const wrong = await as(t, session, SCREEN).post(`/api/account/${account.id}/delete`, {
      current_password: 'not my password',
    });
    expect(wrong.statusCode).toBe(422);
    const res = await as(t, session, SCREEN).post(`/api/account/${account.id}/delete`, { current_password: PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ type: 'notification', path: '/' });
    expect(res.cookies.find((c) => c.name === 'sid')?.value).toBe('');

    const [row] = await t.ctx.db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(row.status).toBe('deleted');
    const days = (row.purgeAfter!.getTime() - row.deletedAt!.getTime()) / 86_400_000;
    expect(days).toBe(14);
    const [profile] = await t.ctx.db.select().from(profiles).where(eq(profiles.userId, account.id));
    expect(profile.listed).toBe(false);
    expect(await t.ctx.db.select().from(sessions).where(eq(sessions.accountId, account.id))).toHaveLength(0);
    expect((await as(t, null, SCREEN).get(`/api/getProfile/${account.id}`)).statusCode).toBe(404);
    // Deleted accounts cannot sign in, nor be switched to.
    const login = await as(t).post(
      '/api/auth/login',
      { login: account.email, password: PASSWORD },
      { remoteAddress: addr() },
    );
    expect(login.statusCode).toBe(422);
    expect((await as(t, other.session, SCREEN).post('/api/auth/switch', { user_id: account.id })).statusCode).toBe(403);
    await smtp.next(account.email, /account was deleted/i);

    // Not yet: the purge waits for purge_after.
    expect((await purgeDeletedAccounts(t.ctx, new Date(Date.now() + 13 * 86_400_000))).purged).not.toContain(
      account.id,
    );
    const result = await purgeDeletedAccounts(t.ctx, new Date(Date.now() + 14 * 86_400_000 + 60_000));
    expect(result.purged).toContain(account.id);
    expect(result.failed).toEqual([]);
    expect(await t.ctx.db.select().from(accounts).where(eq(accounts.id, account.id))).toHaveLength(0);
    expect(await t.ctx.db.select().from(profiles).where(eq(profiles.userId, account.id))).toHaveLength(0);
    expect(await t.ctx.db.select().from(listings).where(eq(listings.profileId, account.id))).toHaveLength(0);
    expect(await t.ctx.db.select().from(media).where(eq(media.userId, account.id))).toHaveLength(0);
    expect(await t.ctx.media.get('public', `u/${account.id}/avatar.webp`)).toBeNull();
    expect(await t.ctx.media.get('public', `u/${account.id}/avatar-320.webp`)).toBeNull();
    expect(await t.ctx.db.select().from(accountLinks).where(eq(accountLinks.accountId, other.account.id))).toHaveLength(
      0,
    );
    // A second run finds nothing left to do.
    expect((await purgeDeletedAccounts(t.ctx, new Date(Date.now() + 15 * 86_400_000))).purged).not.toContain(
      account.id,
    );
  });

  it('keeps an anonymous tombstone when payments point at the account', async () => {
    const { account, session } = await advertiser();
    await t.ctx.db.insert(payments).values({
      userId: account.id,
      method: 'card',
      provider: 'sandbox',
      amount: 1000,
      currency: 'EUR',
      status: 'succeeded',
    });
    expect(
      (await as(t, session, SCREEN).post(`/api/account/${account.id}/delete`, { current_password: PASSWORD }))
        .statusCode,
    ).toBe(200);
    const result = await purgeDeletedAccounts(t.ctx, new Date(Date.now() + 15 * 86_400_000));
    expect(result.anonymized).toContain(account.id);
    const [row] = await t.ctx.db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(row).toMatchObject({
      email: `deleted-${account.id}@deleted.invalid`,
      username: `deleted-${account.id}`,
      mobile: null,
      purgeAfter: null,
    });
    expect(await t.ctx.db.select().from(profiles).where(eq(profiles.userId, account.id))).toHaveLength(0);
    expect(await t.ctx.db.select().from(payments).where(eq(payments.userId, account.id))).toHaveLength(1);
  });
});
