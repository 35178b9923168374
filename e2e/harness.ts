// A tiny journey runner: journeys register here, run.ts runs them one by one in fresh browser
// contexts and prints "N passed, M failed". Kept this small on purpose: a journey is a function
// over a Playwright page, assertions are node:assert.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';

export interface Viewport {
  width: number;
  height: number;
}

export const PHONE: Viewport = { width: 375, height: 812 };
export const DESKTOP: Viewport = { width: 1280, height: 800 };

export interface JourneyContext {
  page: Page;
  baseUrl: string;
  viewport: Viewport;
  /** Every request URL the page made so far. */
  requests: string[];
  /** Saves test-results/e2e/<journey>-<step>.png. */
  screenshot(step: string): Promise<string>;
  /** Console errors that a journey expects (e.g. the browser's own line for an expected 422). */
  allowConsoleError(pattern: RegExp): void;
  /** DATA_DIR of the server under test; its outbox/ holds the mails and texts ('' for E2E_BASE_URL). */
  dataDir: string;
}

export interface Journey {
  name: string;
  viewport: Viewport;
  run(ctx: JourneyContext): Promise<void>;
}

export const journeys: Journey[] = [];

export function journey(name: string, viewport: Viewport, run: Journey['run']): void {
  journeys.push({ name: `${name} @${viewport.width}x${viewport.height}`, viewport, run });
}

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '..', 'test-results', 'e2e');

export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await fs.mkdir(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${slug(name)}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
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
  if (!dataDir) throw new Error('no DATA_DIR: outbox journeys need the runner to start the server');
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
