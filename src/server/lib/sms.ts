// Text messages (the mobile PIN). No SMS provider is configured yet, so the default writes each
// message to <DATA_DIR>/outbox/sms-*.json, listed at /dev/outbox in development. A provider plugs in
// as another SmsSender.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Env } from '../env';
import { outboxDir, outboxName } from './mailer';

export interface SmsMessage {
  /** International format, +4915112345678. */
  to: string;
  text: string;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

export class OutboxSms implements SmsSender {
  constructor(readonly dir: string) {}

  async send(message: SmsMessage): Promise<void> {
    const date = new Date();
    await fs.mkdir(this.dir, { recursive: true });
    const file = path.join(this.dir, `${outboxName('sms', date)}.json`);
    await fs.writeFile(file, JSON.stringify({ ...message, date: date.toISOString() }, null, 2), { mode: 0o600 });
  }
}

export function createSmsSender(env: Pick<Env, 'dataDir'>): SmsSender {
  return new OutboxSms(outboxDir(env));
}
