// Shared steps of the advertiser journeys (money, tours): a listed advertiser made through the app's own
// API client, a card load on the sandbox acquirer's own payment page, the no-horizontal-scroll check. Not a
// journey itself.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { jpegWithGps } from '../../src/server/test/media-files';
import { registerViaApi, type TestAccount } from './auth-helpers';
import { acceptedNotice } from './directory-helpers';

export interface City {
  id: number;
  name: string;
  slug: string;
  country_slug: string;
}

/** A name of letters only (a screen name has at most 3 digits), unique per run. */
export function uniqueName(first: string): string {
  const letters = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`.replace(
    /\d/g,
    (d) => 'qwxzvkjyhg'[Number(d)],
  );
  return `${first} ${letters[0].toUpperCase()}${letters.slice(1)}`;
}

/** Registers an advertiser and completes the ad through the app's own API client: listed in `city`. */
/** A visitor past the 18+ notice, on the country list, who registers and is listed in `city` (signed in). */
export async function startAsListedAdvertiser(page: Page, baseUrl: string, tag: string, city: string) {
  await acceptedNotice(page);
  await page.goto(`${baseUrl}/countries`);
  await page.getByTestId('country-list').waitFor();
  return listedAdvertiser(page, tag, city);
}

export async function listedAdvertiser(page: Page, tag: string, city: string): Promise<TestAccount & { city: City }> {
  const account = await registerViaApi(page, tag);
  const avatar = (await jpegWithGps({ width: 600, height: 800, seed: account.id })).toString('base64');
  const found = await page.evaluate(
    async ({ city, name, avatar }) => {
      const app = window.__directoryApp!;
      const cities = await app.api<{ data: City[] }>(`/edit/findCities?q=${encodeURIComponent(city)}&country=GB`);
      const place = cities.data[0];
      const sections = [
        { section: 'screen_name', screen_name: name },
        { section: 'heading', heading: 'Theatre, wine bars and slow Sunday walks' },
        { section: 'gender', gender: 'female' },
        { section: 'location', city_id: place.id },
        { section: 'phone', phone: '+441134960000' },
        { section: 'about', about: 'Fond of theatre, good wine and long conversations.' },
      ];
      for (const body of sections) await app.api('/update', { method: 'POST', body });
      const bytes = Uint8Array.from(atob(avatar), (c) => c.charCodeAt(0));
      const form = new FormData();
      form.append('file', new Blob([bytes], { type: 'image/jpeg' }), 'me.jpg');
      await app.api('/upload/photo/avatar', { method: 'POST', body: form });
      return place;
    },
    { city, name: uniqueName(tag === 'money' ? 'Rosalind' : 'Imogen'), avatar },
  );
  return { ...account, city: found };
}

export const api = (page: Page, path: string, body?: unknown) =>
  page.evaluate(
    ({ path, body }) => window.__directoryApp!.api(path, body === undefined ? {} : { method: 'POST', body }),
    { path, body },
  );

/**
 * Card tab, amount, then on to the sandbox acquirer's own payment page (decision 0421): the card is entered
 * there, never on our pages.
 */
export async function openCardPage(page: Page, amount: string) {
  const methods = page.getByTestId('load-methods');
  await methods.getByRole('tab', { name: 'Card' }).click();
  await methods.getByLabel(/Amount to load/).fill(amount);
  await page.getByTestId('pay-card-hosted').click();
  await page.waitForURL(/\/sandbox-acquirer\/v1\/pay\?/);
  await page.getByTestId('sandbox-test-provider').waitFor();
}

/**
 * Pays on the sandbox's page with one of its test cards. `hold`: the sandbox control that keeps its
 * notification back (the payer then lands on the sandbox's page of the charge, nothing credited yet).
 */
export async function fillCardPage(page: Page, number: string, opts: { hold?: boolean } = {}) {
  const form = page.getByTestId('sandbox-card-form');
  await form.getByLabel('Card number').fill(number);
  await form.getByLabel('Name on the card').fill('Ada Test');
  await form.getByLabel('Expiry date (MM/YY)').fill(`12/${String(new Date().getFullYear() + 2).slice(2)}`);
  await form.getByLabel('CVC', { exact: true }).fill('123');
  if (opts.hold) await form.getByLabel(/hold the notification/).check();
  await form.getByRole('button', { name: /^Pay / }).click();
}

export async function payByCard(page: Page, amount: string, number: string, opts: { hold?: boolean } = {}) {
  await openCardPage(page, amount);
  await fillCardPage(page, number, opts);
}

/** The page has no horizontal scroll at this width (a 375 px screen shows all of it). */
export async function fitsWidth(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `${what} is ${overflow} px wider than the screen`);
}
