// POST /api/help/contact: stored in the admins' queue and mailed to every admin; bad input is a 422
// that stores and mails nothing; a flood from one address gets 429.
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, feedback, jobs } from '../../db/schema';
import { runDueJobs } from '../../lib/jobs';
import { createAdvertiser, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { HELP_MAIL_JOB, sendHelpMail } from './help.service';

let t: TestApp;
let admins: string[];
beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  const a = await createAdvertiser(t.ctx, { role: 'admin' });
  const b = await createAdvertiser(t.ctx, { role: 'admin' });
  await t.ctx.db.update(accounts).set({ language: 'de' }).where(eq(accounts.id, b.account.id));
  admins = [a.account.email, b.account.email];
});
afterAll(async () => {
  await t.close();
});

const good = { name: 'Sam Visitor', email: 'Sam@Example.test', subject: 'A question', message: 'Line one.\nLine two.' };
let ip = 0;
const send = (payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/help/contact',
    payload: payload as object,
    headers,
    remoteAddress: `10.9.0.${++ip}`,
  });

const mails = () => {
  const dir = path.join(t.dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.startsWith('mail-') && f.endsWith('.json'))
    .map(
      (f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { to: string; subject: string; text: string },
    );
};

describe('POST /api/help/contact', () => {
  it('stores the message, answers a notification in the page language, and mails every admin', async () => {
    const res = await send(good, { 'x-language': 'es' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ type: 'notification', icon: 'success' });
    expect(res.json().message).toMatch(/^Gracias/);
    const stored = await t.ctx.db.select().from(feedback).where(eq(feedback.reason, 'help'));
    expect(stored).toHaveLength(1);
    expect(stored[0].message).toBe('A question\n\nLine one.\nLine two.');
    expect(stored[0].contact).toBe('Sam Visitor <sam@example.test>');
    expect(stored[0].profileId).toBeNull();

    expect(await runDueJobs(t.ctx, { [HELP_MAIL_JOB]: sendHelpMail })).toBe(1);
    const sent = mails().filter((m) => m.text.includes('Line two.'));
    expect(sent.map((m) => m.to).sort()).toEqual([...admins].sort());
    expect(sent.find((m) => m.to === admins[0])?.subject).toBe('Get Help: A question');
    expect(sent.find((m) => m.to === admins[1])?.subject).toBe('Hilfe: A question');
    expect(sent[0].text).toContain('sam@example.test');
  });

  it('refuses bad input with the 422 envelope and stores or mails nothing', async () => {
    const before = (await t.ctx.db.select().from(feedback)).length;
    const jobsBefore = (await t.ctx.db.select().from(jobs).where(eq(jobs.kind, HELP_MAIL_JOB))).length;
    const cases: Array<[unknown, string]> = [
      [{ ...good, name: '  ' }, 'name'],
      [{ ...good, email: 'not-an-address' }, 'email'],
      [{ ...good, subject: 'x'.repeat(151) }, 'subject'],
      [{ ...good, message: '' }, 'message'],
      [{ ...good, message: 'bell\u0007' }, 'message'],
      [{ ...good, extra: 'no' }, ''],
      [{ name: 'Sam' }, 'email'],
    ];
    for (const [payload, field] of cases) {
      const res = await send(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      const body = res.json();
      expect(body.errors, JSON.stringify(payload)).toBeTruthy();
      if (field) expect(Object.keys(body.errors), JSON.stringify(payload)).toContain(field);
    }
    expect((await send('not json', { 'content-type': 'application/json' })).statusCode).toBeLessThan(500);
    expect((await t.ctx.db.select().from(feedback)).length).toBe(before);
    expect((await t.ctx.db.select().from(jobs).where(eq(jobs.kind, HELP_MAIL_JOB))).length).toBe(jobsBefore);
  });

  it('answers 429 to a flood from one address', async () => {
    let last = 0;
    for (let i = 0; i < 8; i++) {
      last = (
        await t.app.inject({ method: 'POST', url: '/api/help/contact', payload: good, remoteAddress: '10.9.9.9' })
      ).statusCode;
      if (last === 429) break;
    }
    expect(last).toBe(429);
  });
});
