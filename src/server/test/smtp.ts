// Test helper: a real SMTP server in process (smtp-server) that parses what arrives (mailparser).
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface TestSmtp {
  url: string;
  messages: ParsedMail[];
  /** The next message to `to` (and whose subject matches), waiting up to `timeoutMs` for it. */
  next(to: string, subject?: RegExp, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

const recipients = (m: ParsedMail) =>
  [m.to]
    .flat()
    .flatMap((a) => a?.value ?? [])
    .map((v) => (v.address ?? '').toLowerCase());

export async function startTestSmtp(): Promise<TestSmtp> {
  const messages: ParsedMail[] = [];
  const taken = new Set<ParsedMail>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          messages.push(mail);
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async next(to, subject, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(
          (m) =>
            !taken.has(m) && recipients(m).includes(to.toLowerCase()) && (!subject || subject.test(m.subject ?? '')),
        );
        if (found) {
          taken.add(found);
          return found;
        }
        if (Date.now() > deadline) throw new Error(`No mail to ${to} ${subject ?? ''} arrived within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link of a mail's text whose path starts with `prefix`, as a path the browser would open. */
export function linkIn(mail: ParsedMail, prefix: string): string {
  const urls = (mail.text ?? '').match(/https?:\/\/[^\s<>"]+/g) ?? [];
  const url = urls.map((u) => new URL(u)).find((u) => u.pathname.startsWith(prefix));
  if (!url) throw new Error(`No ${prefix} link in mail "${mail.subject}": ${mail.text}`);
  return url.pathname;
}
