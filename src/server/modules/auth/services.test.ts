// The auth and account services without HTTP (issue 7, item 2): a context opened the way a job or a
// script opens it, no Fastify app at all, and the calls made with plain inputs. What a route would turn
// into cookies comes back as values.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { msg } from '#shared/api/messages.ts';
import { ACCOUNT_PURGE_DAYS } from '#shared/constants.ts';
import { openRuntime, type Runtime } from '../../bootstrap';
import type { AppContext } from '../../context';
import { accounts, sessions } from '../../db/schema';
import { loadEnv } from '../../env';
import { ValidationError } from '../../lib/errors';
import type { MailMessage } from '../../lib/mailer';
import { hashToken, type SessionUser } from '../../plugins/session';
import { backend, createScratchDatabase, templateImage } from '../../test/helpers';
import { deleteAccount } from '../account/account.service';
import { currentUser, findAccount, login, logout, register } from './identity.service';
import { changePassword } from './recovery.service';
import { requestMobilePin } from './contact-verification.service';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PASSWORD = 'correct horse battery';

let runtime: Runtime;
let ctx: AppContext;
let dataDir: string;
let drop: (() => Promise<void>) | undefined;
const mails: MailMessage[] = [];
const texts: Array<{ to: string; text: string }> = [];
const errors: unknown[] = [];
/** A job's or a script's logger. */
const log = { error: (...args: unknown[]) => void errors.push(args) };

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dir-svc-'));
  const url = backend === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  const scratch = url ? await createScratchDatabase(url, 's') : null;
  drop = scratch?.drop;
  const env = loadEnv({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SESSION_SECRET: crypto.randomBytes(16).toString('hex'),
    LOG_LEVEL: 'silent',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  });
  runtime = await openRuntime(env, { inMemory: true, pgliteImage: scratch ? undefined : templateImage() });
  ctx = {
    ...runtime.ctx,
    mailer: { send: async (m) => void mails.push(m), close: async () => {} },
    sms: { send: async (m) => void texts.push(m) },
  };
});
afterAll(async () => {
  await runtime.close();
  await drop?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

let seq = 0;
function newUser() {
  const n = `${crypto.randomBytes(4).toString('hex')}${seq++}`;
  return {
    email: `s${n}@example.test`,
    username: `svc_${n}`,
    password: PASSWORD,
    date_of_birth: '1990-05-17',
    terms: true as const,
  };
}
const client = { address: '192.0.2.7', userAgent: 'nightly-import/1.0' };

async function actorOf(token: string): Promise<SessionUser> {
  const [row] = await ctx.db
    .select()
    .from(sessions)
    .where(eq(sessions.id, hashToken(token)));
  const user = await currentUser(ctx, row.accountId);
  return { id: user.user_id, role: user.role, username: user.username, sessionId: row.id, csrfToken: row.csrfToken };
}

describe('auth services called without HTTP', () => {
  it('registers and signs in from plain inputs; the session comes back as tokens, not cookies', async () => {
    const user = newUser();
    const created = await register(ctx, { body: user, client, language: 'de', log });
    const id = created.answer.data.user_id;
    expect(created.answer).toMatchObject({
      data: { username: user.username, role: 'advertiser', language: 'de', complete: false },
      path: `/edit/${id}?action=complete`,
    });
    expect(created.session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.knownDevices).toMatch(new RegExp(`^${id}\\.`));
    // The session row carries the address and user agent it was given, and only the token's hash.
    const [row] = await ctx.db.select().from(sessions).where(eq(sessions.accountId, id));
    expect(row).toMatchObject({
      id: hashToken(created.session.token),
      ip: client.address,
      userAgent: client.userAgent,
    });
    expect(mails.find((m) => m.to === user.email)?.text).toContain('/verify/email/');
    // Other modules read the account without its password hash.
    expect(await findAccount(ctx, id)).toMatchObject({ id, email: user.email, language: 'de' });
    expect(await findAccount(ctx, id)).not.toHaveProperty('passwordHash');

    const signedIn = await login(ctx, { login: user.username, password: PASSWORD, client });
    expect(signedIn.answer.data.user_id).toBe(id);
    expect(signedIn.session.token).not.toBe(created.session.token);

    const wrong = await login(ctx, { login: user.email, password: 'not the password at all', client }).catch((e) => e);
    expect(wrong).toBeInstanceOf(ValidationError);
    expect((wrong as ValidationError).errors).toEqual({ login: [msg('auth.badCredentials')] });

    await logout(ctx, hashToken(signedIn.session.token));
    const left = await ctx.db.select().from(sessions).where(eq(sessions.accountId, id));
    expect(left.map((s) => s.id)).toEqual([hashToken(created.session.token)]);
    expect(errors).toEqual([]);
  });

  it('texts the PIN in the language of the account', async () => {
    const { answer } = await register(ctx, { body: newUser(), client, language: 'de', log });
    const { path: pinPath } = await requestMobilePin(ctx, answer.data.user_id, '+491701234567');
    expect(pinPath).toMatch(/^\/verify\/pin\/\d+\.[A-Za-z0-9_-]+$/);
    expect(texts.at(-1)).toEqual({
      to: '+491701234567',
      text: expect.stringMatching(/^Dein Bestätigungscode ist \d{6}\. Er ist 10 Minuten gültig\.$/),
    });
  });

  it('sends an admin home, never to the completion screen (0007)', async () => {
    const user = newUser();
    const { answer } = await register(ctx, { body: user, client, language: 'en', log });
    await ctx.db.update(accounts).set({ role: 'admin' }).where(eq(accounts.id, answer.data.user_id));
    const signedIn = await login(ctx, { login: user.email, password: PASSWORD, client });
    expect(signedIn.answer).toMatchObject({ data: { role: 'admin', complete: false }, path: '/' });
  });

  it('changes a password and deletes an account with the actor as a plain value', async () => {
    const user = newUser();
    const { session } = await register(ctx, { body: user, client, language: 'en', log });
    const actor = await actorOf(session.token);
    const other = await login(ctx, { login: user.email, password: PASSWORD, client });
    const changed = await changePassword(ctx, {
      actor,
      targetId: actor.id,
      currentPassword: PASSWORD,
      password: 'a new and longer passphrase',
      log,
    });
    expect(changed.message).toEqual(msg('auth.passwordChanged'));
    // The session that made the change stays, the other one ends.
    const ids = (await ctx.db.select().from(sessions).where(eq(sessions.accountId, actor.id))).map((s) => s.id);
    expect(ids).toEqual([actor.sessionId]);
    expect(ids).not.toContain(hashToken(other.session.token));

    const deleted = await deleteAccount(ctx, {
      actor,
      id: actor.id,
      currentPassword: 'a new and longer passphrase',
      log,
    });
    expect(deleted.signedOut).toBe(true);
    expect(deleted.answer).toMatchObject({ message: msg('account.deleted', { days: ACCOUNT_PURGE_DAYS }), path: '/' });
    expect(await ctx.db.select().from(sessions).where(eq(sessions.accountId, actor.id))).toEqual([]);
  });

  it('no auth or account service imports Fastify: the routes read requests and set cookies', () => {
    const files = [HERE, path.join(HERE, '../account')].flatMap((dir) =>
      fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.service.ts'))
        .map((f) => path.join(dir, f)),
    );
    expect(files.length).toBeGreaterThanOrEqual(6);
    for (const file of files) {
      const source = fs.readFileSync(file, 'utf8');
      expect(source, file).not.toMatch(/from 'fastify'|FastifyRequest|FastifyReply/);
    }
  });
});
