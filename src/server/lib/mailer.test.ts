// The mailer without SMTP writes the outbox (.eml + .json); with SMTP_URL it really sends.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestSmtp } from '../test/smtp';
import { createMailer, OutboxMailer, SmtpMailer } from './mailer';
import { createSmsSender } from './sms';

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'mailer-test-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const message = {
  to: 'ana@example.test',
  subject: 'Grüße & <links>',
  text: 'Open https://x.test/verify/email/1.abc',
  html: '<p>Open</p>',
};

describe('outbox mailer', () => {
  it('writes the raw message and a summary that parse back to what was sent', async () => {
    const dataDir = tmp();
    const mailer = createMailer({ dataDir, MAIL_FROM: 'Directory <no-reply@directory.test>', SMTP_URL: undefined });
    expect(mailer).toBeInstanceOf(OutboxMailer);
    await mailer.send(message);
    const files = fs.readdirSync(path.join(dataDir, 'outbox')).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^mail-.*\.eml$/);
    expect(files[1]).toMatch(/^mail-.*\.json$/);
    const parsed = await simpleParser(fs.readFileSync(path.join(dataDir, 'outbox', files[0])));
    expect(parsed.subject).toBe(message.subject);
    expect(parsed.text?.trim()).toBe(message.text);
    expect(parsed.from?.text).toContain('no-reply@directory.test');
    const summary = JSON.parse(fs.readFileSync(path.join(dataDir, 'outbox', files[1]), 'utf8'));
    expect(summary).toMatchObject({ ...message, eml: files[0] });
    await mailer.close();
  });

  it('writes texts as sms-*.json', async () => {
    const dataDir = tmp();
    await createSmsSender({ dataDir }).send({ to: '+4917012345678', text: 'Your code is 123456.' });
    const [file] = fs.readdirSync(path.join(dataDir, 'outbox'));
    expect(file).toMatch(/^sms-.*\.json$/);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'outbox', file), 'utf8'))).toMatchObject({
      to: '+4917012345678',
      text: 'Your code is 123456.',
    });
  });
});

describe('SMTP mailer', () => {
  it('delivers to a real SMTP server', async () => {
    const smtp = await startTestSmtp();
    const mailer = createMailer({
      dataDir: tmp(),
      MAIL_FROM: 'Directory <no-reply@directory.test>',
      SMTP_URL: smtp.url,
    });
    expect(mailer).toBeInstanceOf(SmtpMailer);
    await mailer.send(message);
    const got = await smtp.next('ana@example.test');
    expect(got.subject).toBe(message.subject);
    expect(got.html).toContain('<p>Open</p>');
    await mailer.close();
    await smtp.close();
  });
});
