// Languages (issue 13): on a German host name (de.localhost, which Chromium sends to the loopback
// address) every public screen speaks German: no sentence of the English catalogue is visible, no
// raw catalogue key either; the language switcher changes the display and is remembered.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { journey, PHONE } from '../harness';
import { registerViaApi } from './auth-helpers';
import { acceptedNotice, busiestCountry } from './directory-helpers';

type Catalogue = { [key: string]: string | Catalogue };
const I18N = path.resolve(import.meta.dirname, '../../src/shared/i18n');

function flatten(c: Catalogue, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(c)) {
    if (typeof v === 'string') out.set(prefix + k, v);
    else for (const [kk, vv] of flatten(v, `${prefix}${k}.`)) out.set(kk, vv);
  }
  return out;
}

function catalogue(lang: string): Map<string, string> {
  const all = new Map<string, string>();
  for (const file of fs.readdirSync(path.join(I18N, lang))) {
    const ns = file.replace(/\.json$/, '');
    const flat = flatten(JSON.parse(fs.readFileSync(path.join(I18N, lang, file), 'utf8')) as Catalogue);
    for (const [k, v] of flat) all.set(`${ns}:${k}`, v);
  }
  return all;
}

/**
 * The English sentences a German page must not show: every English value (split at its placeholders)
 * of three words or more whose German text differs or is missing.
 */
export function englishSentences(other = 'de'): string[] {
  const en = catalogue('en');
  const translated = catalogue(other);
  const sentences = new Set<string>();
  for (const [key, value] of en) {
    if (translated.get(key) === value) continue;
    for (const part of value.split(/\{\{[^}]+\}\}|<[^>]+>/)) {
      const text = part.trim();
      if (text.split(/\s+/).length >= 3) sentences.add(text);
    }
  }
  return [...sentences];
}

const rawKey = /\b[a-z][a-zA-Z]*(?::[a-z][a-zA-Z]*)?(?:\.[a-z][a-zA-Z0-9]*){2,}\b/;

async function visibleText(page: Page): Promise<string> {
  await page.waitForFunction(() => !document.querySelector('.spinner-cover, .skeleton-text'), null, {
    timeout: 15_000,
  });
  return page.evaluate(() => document.body.innerText);
}

async function expectGerman(page: Page, sentences: string[], where: string) {
  const text = (await visibleText(page)).replace(/\s+/g, ' ');
  const found = sentences.filter((s) => text.includes(s));
  assert.deepEqual(found, [], `${where}: English sentences on a German page`);
  assert.doesNotMatch(text, rawKey, `${where}: a raw catalogue key is shown`);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'de', `${where}: <html lang>`);
}

journey(
  'languages: a de. host shows no English on the public screens',
  PHONE,
  async ({ page, baseUrl, screenshot }) => {
    await acceptedNotice(page);
    const country = await busiestCountry(page, baseUrl);
    const de = baseUrl.replace('127.0.0.1', 'de.localhost');
    const sentences = englishSentences('de');
    assert.ok(sentences.length > 100, `the English catalogue yields sentences (${sentences.length})`);

    await page.goto(`${de}/`);
    await page.getByTestId('top-countries').waitFor();
    await expectGerman(page, sentences, 'home');
    await screenshot('1-home');

    await page.goto(`${de}/escorts/${country.slug}`);
    await page.getByTestId('profile-card').first().waitFor();
    await expectGerman(page, sentences, 'country');
    await screenshot('2-country');

    const href = await page.getByTestId('profile-card').first().locator('a').first().getAttribute('href');
    await page.goto(`${de}${href}`);
    await page.getByTestId('profile-name').first().waitFor();
    await expectGerman(page, sentences, 'profile');
    await screenshot('3-profile');

    await page.goto(`${de}/search?q=${encodeURIComponent(country.name.slice(0, 4))}`);
    await page.locator('h1').first().waitFor();
    await expectGerman(page, sentences, 'search');

    await page.goto(`${de}/countries`);
    await page.getByTestId('country-list').waitFor();
    await expectGerman(page, sentences, 'countries');

    await page.goto(`${de}/feed`);
    await page.getByTestId('feed-profiles').waitFor();
    await page
      .locator('[data-testid="feed-profiles"] .card:not(.card--skeleton), [data-testid="feed-profiles"] .empty')
      .first()
      .waitFor();
    await expectGerman(page, sentences, 'feed');
    await screenshot('4-feed');

    await page.goto(`${de}/shop`);
    await page.locator('h1').first().waitFor();
    await expectGerman(page, sentences, 'shop');

    await page.goto(`${de}/help`);
    await page.getByTestId('help-form').waitFor();
    await expectGerman(page, sentences, 'help');
    await screenshot('5-help');
  },
);

journey('languages: the switcher changes the display and is remembered', PHONE, async ({ page, baseUrl }) => {
  await acceptedNotice(page);
  await page.goto(`${baseUrl}/help`);
  await page.getByTestId('help-form').waitFor();
  assert.equal(await page.locator('h1').first().innerText(), 'Get Help');
  await page.locator('.menu-toggle').click();
  await page.getByTestId('language-switcher').selectOption('es');
  await page.waitForFunction(() => document.documentElement.lang === 'es');
  assert.equal(await page.locator('h1').first().innerText(), 'Ayuda');
  await page.reload();
  await page.getByTestId('help-form').waitFor();
  assert.equal(await page.locator('h1').first().innerText(), 'Ayuda', 'the choice is remembered');
  // An indexed ?lang= address still shows what search engines were told.
  await page.goto(`${baseUrl}/help?lang=de`);
  await page.getByTestId('help-form').waitFor();
  assert.equal(await page.locator('h1').first().innerText(), 'Hilfe');
});

journey(
  'languages: the help form refuses bad input and sends a good message',
  PHONE,
  async ({ page, baseUrl, allowConsoleError, dataDir }) => {
    await acceptedNotice(page);
    allowConsoleError(/status of 422/);
    await page.goto(`${baseUrl}/help?lang=es`);
    await page.getByTestId('help-form').waitFor();
    const form = page.getByTestId('help-form');
    await form.locator('input[name="name"]').fill('Sam');
    await form.locator('input[name="email"]').fill('no-address');
    await form.locator('input[name="subject"]').fill('Pregunta');
    await form.locator('textarea[name="message"]').fill('Hola.');
    await form.locator('button[type="submit"]').click();
    await page.locator('[aria-invalid="true"]').first().waitFor();
    assert.equal(await page.getByTestId('help-sent').count(), 0);
    await form.locator('input[name="email"]').fill('sam@example.test');
    await form.locator('button[type="submit"]').click();
    await page.getByTestId('help-sent').waitFor();
    assert.match(await page.getByTestId('help-sent').innerText(), /^Gracias/);
    if (dataDir) {
      const jobsDone = await page.request.get(`${baseUrl}/api/health`);
      assert.ok(jobsDone.ok());
    }
  },
);

journey(
  "languages: a signed-in user's saved language (es) switches the display after the start fetch",
  PHONE,
  async ({ page, baseUrl, screenshot }) => {
    await acceptedNotice(page);
    await page.goto(`${baseUrl}/countries`);
    await page.getByTestId('country-list').waitFor();
    const account = await registerViaApi(page, 'lang-es');
    const saved = await page.evaluate(
      (id) => window.__directoryApp!.api(`/account/${id}/language`, { method: 'POST', body: { language: 'es' } }),
      account.id,
    );
    assert.deepEqual(saved, { data: { language: 'es' } });
    // The account screen is reachable with an incomplete profile (no completion redirect).
    await page.goto(`${baseUrl}/edit/account/${account.id}`);
    await page.waitForFunction(() => document.documentElement.lang === 'es');
    await page.locator('h1').first().waitFor();
    const sentences = englishSentences('es');
    const text = (await visibleText(page)).replace(/\s+/g, ' ');
    assert.deepEqual(
      sentences.filter((s) => text.includes(s)),
      [],
      'account screen: English sentences on a Spanish page',
    );
    assert.equal(await page.getByTestId('language-switcher').inputValue(), 'es');
    await screenshot('1-account-es');
  },
);

// Screenshots of five screens per language at 375 px for docs/screenshots (E2E_DOCS_SCREENSHOTS=1).
journey('languages: screenshots of five screens per language', PHONE, async ({ page, baseUrl }) => {
  if (!process.env.E2E_DOCS_SCREENSHOTS) return;
  await acceptedNotice(page);
  const country = await busiestCountry(page, baseUrl);
  const dir = path.resolve(import.meta.dirname, '../../docs/screenshots');
  fs.mkdirSync(dir, { recursive: true });
  for (const lang of ['en', 'de', 'es']) {
    const shots: Array<[string, string, string]> = [
      ['home', '/', '[data-testid="top-countries"]'],
      ['country', `/escorts/${country.slug}`, '[data-testid="profile-card"]'],
      ['feed', '/feed', '[data-testid="feed-profiles"] .card:not(.card--skeleton)'],
      ['shop', '/shop', 'h1'],
      ['help', '/help', '[data-testid="help-form"]'],
    ];
    for (const [name, url, ready] of shots) {
      await page.goto(`${baseUrl}${url}${url.includes('?') ? '&' : '?'}lang=${lang}`);
      await page.locator(ready).first().waitFor();
      await visibleText(page);
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(dir, `${lang}-${name}.jpg`), type: 'jpeg', quality: 70 });
    }
  }
});
