// The journeys' `test`: @playwright/test with fixtures for the server playwright.config.ts started (its
// address and DATA_DIR), every request URL the page made, named screenshots in the test's output folder,
// and a console-error policy: a console error fails the journey unless it allowed that line. A journey
// file sets its viewport with test.use({ viewport: PHONE }) and ends its titles in @<width>x<height>.
import fs from 'node:fs/promises';
import path from 'node:path';
import { test as base, type Request } from '@playwright/test';

export { expect } from '@playwright/test';

export interface Viewport {
  width: number;
  height: number;
}

export const PHONE: Viewport = { width: 375, height: 812 };
export const DESKTOP: Viewport = { width: 1280, height: 800 };

/** Browser lines for failed requests a journey provoked on purpose are fine; anything else fails it. */
const ALWAYS_ALLOWED = [
  // A visitor's start-up user-data call answers 401 by design.
  /Failed to load resource: the server responded with a status of 401/,
];

/** Set by playwright.config.ts. */
export interface JourneyOptions {
  /** DATA_DIR of the server under test; its outbox/ holds the mails and texts ('' for E2E_BASE_URL). */
  dataDir: string;
}

export interface JourneyFixtures {
  /** The address of the server under test. */
  baseUrl: string;
  /** Every request URL the page made so far. */
  requests: string[];
  /** Saves <step>.png in the test's output folder, test-results/e2e/<test>/ (`screenshot` is Playwright's option). */
  shot(step: string): Promise<string>;
  /** Console errors that a journey expects (e.g. the browser's own line for an expected 422). */
  allowConsoleError(pattern: RegExp): void;
}

export const test = base.extend<JourneyFixtures & JourneyOptions>({
  dataDir: ['', { option: true }],
  baseUrl: async ({ baseURL }, use) => {
    if (!baseURL) throw new Error('no baseURL: playwright.config.ts sets it');
    await use(baseURL);
  },
  requests: async ({ page }, use) => {
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await use(requests);
  },
  shot: async ({ page }, use, testInfo) => {
    await use(async (step) => {
      const file = testInfo.outputPath(`${slug(step)}.png`);
      await page.screenshot({ path: file, fullPage: false });
      return file;
    });
  },
  // Automatic: every journey's page is watched, whether or not it asks for this fixture.
  allowConsoleError: [
    async ({ page }, use) => {
      const allowed = [...ALWAYS_ALLOWED];
      const consoleErrors: string[] = [];
      const failedResponses: string[] = [];
      page.on('response', (response) => {
        if (response.status() >= 400)
          failedResponses.push(`${response.status()} ${response.request().method()} ${response.url()}`);
      });
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(`${message.text()} [${message.location().url}]`);
      });
      page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
      await use((pattern) => void allowed.push(pattern));
      // A route handler still fetching when the journey ends would reject after the context is gone.
      await page.unrouteAll({ behavior: 'ignoreErrors' }).catch(() => undefined);
      const unexpected = consoleErrors.filter((line) => !allowed.some((pattern) => pattern.test(line)));
      if (unexpected.length) {
        throw new Error(
          `unexpected console errors:\n  ${unexpected.join('\n  ')}\nfailed responses:\n  ${failedResponses.join('\n  ') || '(none)'}`,
        );
      }
    },
    { auto: true },
  ],
});

export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export function isChunkRequest(request: Request | string): boolean {
  const url = typeof request === 'string' ? request : request.url();
  return /\/dyn\/[^?]+\.js\?v=[\w-]+$/.test(url);
}

export interface OutboxMessage {
  file: string;
  to: string;
  subject?: string;
  text: string;
}

/**
 * The newest message in <DATA_DIR>/outbox for `to` (and `subject`), waiting for it to be written:
 * some mails leave after the answer (forgotPassword). `prefix` is "mail" or "sms".
 */
export async function waitForOutbox(
  dataDir: string,
  prefix: 'mail' | 'sms',
  match: { to: string; subject?: RegExp; skip?: string[] },
  timeoutMs = 10_000,
): Promise<OutboxMessage> {
  if (!dataDir) throw new Error('no DATA_DIR: outbox journeys need the server playwright.config.ts starts');
  const dir = path.join(dataDir, 'outbox');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = (await fs.readdir(dir).catch(() => [] as string[]))
      .filter((f) => f.startsWith(`${prefix}-`) && f.endsWith('.json') && !match.skip?.includes(f))
      .sort()
      .reverse();
    for (const file of files) {
      try {
        const message = JSON.parse(await fs.readFile(path.join(dir, file), 'utf8')) as OutboxMessage;
        if (message.to !== match.to || (match.subject && !match.subject.test(message.subject ?? ''))) continue;
        return { ...message, file };
      } catch {
        // Still being written: the next round reads it whole.
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no ${prefix} to ${match.to}${match.subject ? ` matching ${match.subject}` : ''} in ${dir}`);
}

/** The path (and query) of the first link in a message that starts with `prefix`, e.g. "/verify/email/". */
export function linkIn(text: string, prefix: string): string {
  for (const url of text.match(/https?:\/\/\S+/g) ?? []) {
    const parsed = new URL(url);
    if (parsed.pathname.startsWith(prefix)) return `${parsed.pathname}${parsed.search}`;
  }
  throw new Error(`no ${prefix} link in:\n${text}`);
}

/** `text` as a regular expression that matches it literally (for toHaveText, toHaveTitle...). */
export function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
