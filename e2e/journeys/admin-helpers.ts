// Shared steps of the admin journeys (not a journey itself: the runner loads *.journey.ts only): the
// seed's admin login, and advertisers made through the app's own API in browser contexts of their own.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { registerViaApi, type TestAccount } from './auth-helpers';
import { acceptedNotice } from './directory-helpers';

/** The first start prints the admin's login once (main.ts); e2e/serve.ts keeps the server's output. */
export function seedAdmin(): { login: string; password: string } {
  const file = process.env.E2E_SERVER_LOG;
  assert.ok(file, 'E2E_SERVER_LOG: the admin journeys need the server playwright.config.ts starts');
  const log = fs.readFileSync(file, 'utf8');
  const login = /login:\s+(\S+)/.exec(log)?.[1];
  const password = /password:\s+(\S+)/.exec(log)?.[1];
  assert.ok(login && password, 'the server printed the admin login on its first start');
  return { login, password };
}

/** Signs the page in as the seed's admin (through the app's API client, as the login form does). */
export async function signInAsAdmin(page: Page, baseUrl: string): Promise<void> {
  await acceptedNotice(page);
  await page.goto(`${baseUrl}/countries`);
  await page.getByTestId('country-list').waitFor();
  const { login, password } = seedAdmin();
  await page.evaluate((body) => window.__directoryApp!.api('/auth/login', { method: 'POST', body }), {
    login,
    password,
  });
}

export interface Advertiser extends TestAccount {
  context: BrowserContext;
  page: Page;
  screenName: string;
}

const LONDON = 2643743;

/** Calls the API as the page's user (the app's client adds the CSRF header). */
export function call<T>(page: Page, url: string, body?: unknown): Promise<T> {
  return page.evaluate(
    ({ url, body }) =>
      window.__directoryApp!.api<T>(url, body === undefined ? {} : { method: 'POST', body }) as Promise<T>,
    { url, body },
  ) as Promise<T>;
}

/** Uploads a file the way the upload screens do (multipart, field `file`). */
export async function upload(page: Page, url: string, file: Buffer, type = 'image/jpeg', name = 'photo.jpg') {
  return page.evaluate(
    async ({ url, bytes, type, name }) => {
      const form = new FormData();
      form.append('file', new File([new Uint8Array(bytes)], name, { type }));
      return window.__directoryApp!.api(url, { method: 'POST', body: form });
    },
    { url, bytes: [...file], type, name },
  );
}

/**
 * A registered advertiser in a browser context of their own. `complete`: every required section and
 * an avatar, so the ad is listed (a public profile).
 */
export async function newAdvertiser(
  browser: Browser,
  baseUrl: string,
  tag: string,
  o: { complete?: boolean; avatar?: Buffer; viewport?: { width: number; height: number } } = {},
): Promise<Advertiser> {
  const context = await browser.newContext({ viewport: o.viewport, locale: 'en-GB' });
  const page = await context.newPage();
  await acceptedNotice(page);
  await page.goto(`${baseUrl}/countries`);
  await page.getByTestId('country-list').waitFor();
  const account = await registerViaApi(page, tag);
  const screenName = `${tag[0].toUpperCase()}${tag.slice(1)} ${account.username.slice(-5)}`.replace(/[^A-Za-z ]/g, 'x');
  if (o.complete) {
    const sections = [
      { section: 'screen_name', screen_name: screenName },
      { section: 'heading', heading: 'Warm company in London' },
      { section: 'about', about: 'Friendly, punctual and discreet. Dinner dates and long walks.' },
      { section: 'gender', gender: 'female' },
      { section: 'phone', phone: '+44 20 7946 0123' },
      { section: 'location', city_id: LONDON },
    ];
    for (const s of sections) await call(page, '/update', s);
  }
  if (o.avatar) await upload(page, '/upload/photo/avatar', o.avatar);
  return { ...account, context, page, screenName };
}

/** Public files of an account's pictures under DATA_DIR (u/{id}/...). */
export function publicFilesOf(dataDir: string, userId: number): string[] {
  const dir = path.join(dataDir, 'media', 'public', 'u', String(userId));
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}
