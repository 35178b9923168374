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
