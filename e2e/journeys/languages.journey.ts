// Languages (issue 13): on a German host name (de.localhost, which Chromium sends to the loopback
// address) every public screen speaks German: no sentence of the English catalogue is visible, no
// raw catalogue key either; the language switcher changes the display and is remembered.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect, PHONE, test } from '../harness';
import { jpegWithGps } from '../../src/server/test/media-files';
import { call, upload } from './admin-helpers';
import { registerViaApi, type TestAccount } from './auth-helpers';
import { acceptedNotice, busiestCountry, type Country } from './directory-helpers';

test.use({ viewport: PHONE });

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

/** Every text of a language's catalogues. */
const catalogueValues = (lang: string) => new Set(catalogue(lang).values());

/**
 * The English sentences a German page must not show: every English value (split at its placeholders)
 * of `minWords` words or more whose German text differs or is missing.
 */
export function englishSentences(other = 'de', minWords = 3): string[] {
  const en = catalogue('en');
  const translated = catalogue(other);
  const sentences = new Set<string>();
  for (const [key, value] of en) {
    if (translated.get(key) === value) continue;
    for (const part of value.split(/\{\{[^}]+\}\}|<[^>]+>/)) {
      const text = part.trim();
      if (text.split(/\s+/).length >= minWords) sentences.add(text);
    }
  }
  return [...sentences];
}

/**
 * The Spanish sentences a Portuguese page must not show (issue 27 item 6: Spanish is only the fallback of
 * a missing key): every Spanish value (split at its placeholders) of `minWords` words or more whose
 * Portuguese text differs, and that no Portuguese text contains (words the two languages share).
 */
export function spanishSentences(minWords = 2): string[] {
  const es = catalogue('es');
  const pt = catalogue('pt');
  const ptTexts = [...pt.values()];
  const sentences = new Set<string>();
  for (const [key, value] of es) {
    if (pt.get(key) === value) continue;
    for (const part of value.split(/\{\{[^}]+\}\}|<[^>]+>/)) {
      const text = part.trim();
      if (text.split(/\s+/).length >= minWords && !ptTexts.some((p) => p.includes(text))) sentences.add(text);
    }
  }
  return [...sentences];
}

const rawKey = /\b[a-z][a-zA-Z]*(?::[a-z][a-zA-Z]*)?(?:\.[a-z][a-zA-Z0-9]*){2,}\b/;

async function visibleText(page: Page): Promise<string> {
  await expect(page.locator('.spinner-cover, .skeleton-text')).toHaveCount(0, { timeout: 15_000 });
  return page.evaluate(() => document.body.innerText);
}

/**
 * The page shows `lang` (html lang), no English catalogue sentence and no raw catalogue key. Auto-waiting:
 * a signed-in user's language arrives with the start fetch, and the display switches then.
 */
async function expectLanguage(page: Page, lang: 'de' | 'es' | 'pt', sentences: string[], where: string) {
  await expect(page.locator('html'), `${where}: <html lang>`).toHaveAttribute('lang', lang);
  const text = async () => (await visibleText(page)).replace(/\s+/g, ' ');
  await expect
    .poll(
      async () => {
        const shown = await text();
        return sentences.filter((s) => shown.includes(s));
      },
      { message: `${where}: sentences of another language on a page in ${lang}` },
    )
    .toEqual([]);
  await expect
    .poll(async () => rawKey.exec(await text())?.[0] ?? null, { message: `${where}: a raw catalogue key is shown` })
    .toBeNull();
}

const attr = (html: string, re: RegExp) => re.exec(html)?.[1]?.replace(/&amp;/g, '&');

/**
 * The HTML the server sent for a page in `lang` (before any script ran): its <html lang>, a title, the
 * alternates of every language plus x-default, the page's own language version among them and English
 * on a host without the de. prefix, and the same title the app shows once it has started.
 */
async function expectServerHtml(page: Page, html: string, lang: 'de' | 'es', where: string) {
  assert.equal(attr(html, /<html lang="([^"]*)"/), lang, `${where}: server <html lang>`);
  const title = attr(html, /<title>([^<]*)<\/title>/);
  assert.ok(title, `${where}: server <title>`);
  const alternates = new Map([...html.matchAll(/hreflang="([^"]+)" href="([^"]+)"/g)].map((m) => [m[1], m[2]]));
  assert.deepEqual([...alternates.keys()].sort(), ['de', 'en', 'es', 'pt', 'x-default'], `${where}: hreflang set`);
  const own = new URL(page.url());
  const mine = new URL(alternates.get(lang)!.replace(/&amp;/g, '&'));
  assert.equal(mine.pathname, own.pathname, `${where}: the ${lang} alternate is this page`);
  const english = new URL(alternates.get('en')!);
  assert.doesNotMatch(english.hostname, /^de\./, `${where}: English never on the German host`);
  assert.equal(english.searchParams.get('lang'), null, `${where}: English is the bare address`);
  assert.equal(alternates.get('x-default'), alternates.get('en'), `${where}: x-default is English`);
  if (lang === 'de') assert.ok(mine.hostname.startsWith('de.') || mine.searchParams.get('lang') === 'de');
  else assert.equal(mine.searchParams.get('lang'), 'es', `${where}: the es alternate`);
  // The title is the page language's: it differs from the English page's title unless the two
  // catalogues share the text ("Shop") or the title is the advertiser's own words (a profile).
  // localhost is the loopback address the server listens on (Node may try ::1 for the name).
  const englishUrl = alternates.get('en')!.replace(/&amp;/g, '&').replace('//localhost:', '//127.0.0.1:');
  // Asked as a search engine asks, without the browser's session: a signed-in user's own page speaks her
  // saved language (decision 0605), the English address speaks English to everyone else.
  const englishHtml = await (await fetch(englishUrl)).text();
  const englishTitle = attr(englishHtml, /<title>([^<]*)<\/title>/);
  assert.equal(attr(englishHtml, /<html lang="([^"]*)"/), 'en', `${where}: the English alternate is English`);
  if (title === englishTitle && where !== 'profile')
    assert.ok(catalogueValues(lang).has(title), `${where}: the server's title is the English one ("${title}")`);
}

/**
 * Registers an advertiser from the page (its language is the page's) and completes the profile (every
 * required section and an avatar), so no completion redirect stands between them and the screens.
 */
async function completeAdvertiser(page: Page, tag: string, seed: number): Promise<TestAccount> {
  const account = await registerViaApi(page, tag);
  const sections = [
    { section: 'screen_name', screen_name: `Lang ${tag.replace(/[^a-z]/g, '')}` },
    { section: 'heading', heading: 'Warm company in London' },
    { section: 'about', about: 'Friendly, punctual and discreet. Dinner dates and long walks.' },
    { section: 'gender', gender: 'female' },
    { section: 'phone', phone: '+44 20 7946 0123' },
    { section: 'location', city_id: 2643743 },
  ];
  for (const s of sections) await call(page, '/update', s);
  await upload(page, '/upload/photo/avatar', await jpegWithGps({ seed }));
  const me = await call<{ complete: boolean }>(page, '/app/getData/x', {});
  assert.equal(me.complete, true, 'the profile is complete');
  return account;
}

interface Tour {
  /** Origin of the pages (the de. host, or the neutral one for a signed-in user's language). */
  origin: string;
  /** Appended to every address (`?lang=es`), '' when the host or the account decides. */
  query: string;
  lang: 'de' | 'es';
  country: Country;
  accountId: number;
  /** Check the server's HTML too (its alternates and titles; the account's tour checks the display). */
  serverHtml: boolean;
  shot: (step: string) => Promise<string>;
}

type Visit = (where: string, path: string, ready: () => Promise<unknown>, shot?: string) => Promise<unknown>;

/** The country's list, its busiest city's and the first profile there, each checked by `visit`. */
async function directoryScreens(
  page: Page,
  country: string,
  visit: Visit,
  shots: { country: string; profile: string },
) {
  await visit(
    'country',
    `/escorts/${country}`,
    () => page.getByTestId('profile-card').first().waitFor(),
    shots.country,
  );
  const nav = await page.evaluate(
    (slug) =>
      window.__directoryApp!.api<{ places: Array<{ slug: string }> }>('/directory/getNavigation', {
        method: 'POST',
        body: { country: slug },
      }),
    country,
  );
  const city = nav.places[0];
  assert.ok(city, 'the busiest country has a city with listings');
  await visit('city', `/escorts/${country}/${city.slug}`, () => page.getByTestId('profile-card').first().waitFor());
  const href = await page.getByTestId('profile-card').first().locator('a').first().getAttribute('href');
  assert.ok(href);
  await visit(
    'profile',
    new URL(href, page.url()).pathname,
    () => page.getByTestId('profile-name').first().waitFor(),
    shots.profile,
  );
}

/**
 * The judged tour (issue 13): home, a country, a city, a profile, search, countries, feed, shop, help
 * and the account screen, each with no English sentence, no raw key and the right <html lang>.
 */
async function tour(page: Page, t: Tour) {
  // Two words and more ("Load more", "All countries"); a profile shows the advertiser's own words, which
  // may well be English, so there only sentences of three words and more count.
  const phrases = englishSentences(t.lang, 2);
  const sentences = englishSentences(t.lang, 3);
  assert.ok(sentences.length > 100, `the English catalogue yields sentences (${sentences.length})`);
  const url = (path: string) =>
    `${t.origin}${path}${t.query ? (path.includes('?') ? '&' : '?') + t.query.slice(1) : ''}`;
  const visit = async (where: string, path: string, ready: () => Promise<unknown>, shot?: string) => {
    const res = await page.goto(url(path));
    assert.ok(res?.ok(), `${where}: ${res?.status()}`);
    const html = await res!.text();
    await ready();
    await expectLanguage(page, t.lang, where === 'profile' ? sentences : phrases, where);
    if (t.serverHtml) await expectServerHtml(page, html, t.lang, where);
    if (shot) await t.shot(shot);
  };

  await visit('home', '/', () => page.getByTestId('top-countries').waitFor(), '1-home');
  await directoryScreens(page, t.country.slug, visit, { country: '2-country', profile: '3-profile' });
  await visit('search', `/search?q=${encodeURIComponent(t.country.name.slice(0, 4))}`, () =>
    page.locator('h1').first().waitFor(),
  );
  await visit('countries', '/countries', () => page.getByTestId('country-list').waitFor());
  await visit(
    'feed',
    '/feed',
    async () => {
      await page.getByTestId('feed-profiles').waitFor();
      await page
        .locator('[data-testid="feed-profiles"] .card:not(.card--skeleton), [data-testid="feed-profiles"] .empty')
        .first()
        .waitFor();
    },
    '4-feed',
  );
  await visit('shop', '/shop', () => page.locator('h1').first().waitFor());
  await visit('help', '/help', () => page.getByTestId('help-form').waitFor(), '5-help');
  // The account screen is reachable with an incomplete profile (no completion redirect).
  await visit('account', `/edit/account/${t.accountId}`, () => page.locator('h1').first().waitFor(), '6-account');
  // The switcher names the page's language at once, and the account's once its data is in (auto-waiting).
  await expect(page.getByTestId('language-switcher')).toHaveValue(t.lang);
}

test('languages: a de. host shows no English on the ten judged screens, and the server HTML agrees @375x812', async ({
  page,
  baseUrl,
  shot,
}) => {
  await acceptedNotice(page);
  const country = await busiestCountry(page, baseUrl);
  const de = baseUrl.replace('127.0.0.1', 'de.localhost');
  await page.goto(`${de}/countries`);
  await page.getByTestId('country-list').waitFor();
  // Registered from the German page: the account's language is German (its emails too).
  const account = await completeAdvertiser(page, 'lang-de', 61);
  await tour(page, {
    origin: de,
    query: '',
    lang: 'de',
    country,
    accountId: account.id,
    serverHtml: true,
    shot,
  });
});

test('languages: the switcher changes the display and is remembered @375x812', async ({ page, baseUrl }) => {
  await acceptedNotice(page);
  await page.goto(`${baseUrl}/help`);
  await page.getByTestId('help-form').waitFor();
  const h1 = page.locator('h1').first();
  await expect(h1).toHaveText('Get Help');
  await page.locator('.menu-toggle').click();
  await page.getByTestId('language-switcher').selectOption('es');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(h1).toHaveText('Ayuda');
  await page.reload();
  await page.getByTestId('help-form').waitFor();
  await expect(h1, 'the choice is remembered').toHaveText('Ayuda');
  // An indexed ?lang= address still shows what search engines were told.
  await page.goto(`${baseUrl}/help?lang=de`);
  await page.getByTestId('help-form').waitFor();
  await expect(h1).toHaveText('Hilfe');
});

test('languages: the help form refuses bad input and sends a good message @375x812', async ({
  page,
  baseUrl,
  allowConsoleError,
  dataDir,
}) => {
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
  await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible();
  await expect(page.getByTestId('help-sent')).toHaveCount(0);
  await form.locator('input[name="email"]').fill('sam@example.test');
  await form.locator('button[type="submit"]').click();
  await expect(page.getByTestId('help-sent')).toHaveText(/^Gracias/);
  if (dataDir) {
    const jobsDone = await page.request.get(`${baseUrl}/api/health`);
    assert.ok(jobsDone.ok());
  }
});

test('languages: a signed-in Spanish-speaking advertiser sees the ten judged screens in Spanish @375x812', async ({
  page,
  baseUrl,
  shot,
}) => {
  await acceptedNotice(page);
  const country = await busiestCountry(page, baseUrl);
  await page.goto(`${baseUrl}/countries`);
  await page.getByTestId('country-list').waitFor();
  const account = await completeAdvertiser(page, 'lang-es', 62);
  const saved = await page.evaluate(
    (id) => window.__directoryApp!.api(`/account/${id}/language`, { method: 'POST', body: { language: 'es' } }),
    account.id,
  );
  assert.deepEqual(saved, { data: { language: 'es' } });
  // The neutral host and no ?lang=: only the account says Spanish (the start fetch switches the display).
  await tour(page, {
    origin: baseUrl,
    query: '',
    lang: 'es',
    country,
    accountId: account.id,
    serverHtml: false,
    shot,
  });
});

test('languages: ?lang=es pages come from the server in Spanish @375x812', async ({ page, baseUrl, shot }) => {
  await acceptedNotice(page);
  const country = await busiestCountry(page, baseUrl);
  await page.goto(`${baseUrl}/countries?lang=es`);
  await page.getByTestId('country-list').waitFor();
  const account = await completeAdvertiser(page, 'lang-esq', 63);
  await tour(page, {
    origin: baseUrl,
    query: '?lang=es',
    lang: 'es',
    country,
    accountId: account.id,
    serverHtml: true,
    shot,
  });
});

test('languages: a Portuguese visitor on ?lang=pt sees no Spanish sentence on the directory, profile, edit and checkout screens @375x812', async ({
  page,
  baseUrl,
  shot,
}) => {
  await acceptedNotice(page);
  const country = await busiestCountry(page, baseUrl);
  const phrases = spanishSentences(2);
  const sentences = spanishSentences(3);
  assert.ok(sentences.length > 100, `the Spanish catalogue yields sentences (${sentences.length})`);
  const shown = async () => (await visibleText(page)).replace(/\s+/g, ' ');
  // The check can see Spanish: the same country page in Spanish shows some of these phrases.
  await page.goto(`${baseUrl}/escorts/${country.slug}?lang=es`);
  await page.getByTestId('profile-card').first().waitFor();
  await expect
    .poll(
      async () => {
        const text = await shown();
        return phrases.filter((p) => text.includes(p)).length;
      },
      { message: 'the Spanish page shows phrases of the list' },
    )
    .toBeGreaterThan(0);

  await page.goto(`${baseUrl}/countries?lang=pt`);
  await page.getByTestId('country-list').waitFor();
  // Registered from a Portuguese page: her account speaks Portuguese.
  const account = await completeAdvertiser(page, 'lang-pt', 64);
  const visit = async (where: string, url: string, ready: () => Promise<unknown>, step?: string) => {
    const res = await page.goto(`${baseUrl}${url}${url.includes('?') ? '&' : '?'}lang=pt`);
    assert.ok(res?.ok(), `${where}: ${res?.status()}`);
    assert.match((await res!.text()) ?? '', /<html lang="pt"/, `${where}: server <html lang>`);
    await ready();
    await expectLanguage(page, 'pt', where === 'profile' ? sentences : phrases, where);
    if (step) await shot(step);
  };
  await directoryScreens(page, country.slug, visit, { country: '1-pt-country', profile: '2-pt-profile' });
  await visit('edit', `/edit/${account.id}`, () => page.locator('h1').first().waitFor(), '3-pt-edit');
  await visit(
    'checkout',
    '/checkout/cart?add=standard_topup',
    () => page.getByTestId('cart-item').first().waitFor(),
    '4-pt-checkout',
  );
});

// Screenshots of five screens per language at 375 px for docs/screenshots (E2E_DOCS_SCREENSHOTS=1).
test('languages: screenshots of five screens per language @375x812', async ({ page, baseUrl }) => {
  test.skip(!process.env.E2E_DOCS_SCREENSHOTS, 'only with E2E_DOCS_SCREENSHOTS=1');
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
