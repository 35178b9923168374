// Email that really leaves: SMTP when SMTP_URL is set, otherwise every message is written to
// <DATA_DIR>/outbox as the raw .eml plus a small .json (to, subject, text, html), readable at
// /dev/outbox in development. Services only see the Mailer interface.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Env } from '../env';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

/** Outbox file names sort in the order the messages were written. */
export function outboxName(prefix: 'mail' | 'sms', date = new Date()): string {
  return `${prefix}-${date.toISOString().replace(/[:.]/g, '-')}-${crypto.randomBytes(4).toString('hex')}`;
}

export function outboxDir(env: Pick<Env, 'dataDir'>): string {
  return path.join(env.dataDir, 'outbox');
}

export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...message });
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

export interface OutboxRecord extends MailMessage {
  from: string;
  date: string;
  eml: string;
}

export class OutboxMailer implements Mailer {
  // streamTransport + buffer gives the exact bytes SMTP would have carried.
  private readonly transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  constructor(
    readonly dir: string,
    private readonly from: string,
  ) {}

  async send(message: MailMessage): Promise<void> {
    const info = await this.transport.sendMail({ from: this.from, ...message });
    const date = new Date();
    const base = outboxName('mail', date);
    await fs.mkdir(this.dir, { recursive: true });
    await fs.writeFile(path.join(this.dir, `${base}.eml`), info.message as Buffer, { mode: 0o600 });
    const record: OutboxRecord = { from: this.from, ...message, date: date.toISOString(), eml: `${base}.eml` };
    await fs.writeFile(path.join(this.dir, `${base}.json`), JSON.stringify(record, null, 2), { mode: 0o600 });
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

export function createMailer(env: Pick<Env, 'SMTP_URL' | 'MAIL_FROM' | 'dataDir'>): Mailer {
  return env.SMTP_URL ? new SmtpMailer(env.SMTP_URL, env.MAIL_FROM) : new OutboxMailer(outboxDir(env), env.MAIL_FROM);
}
