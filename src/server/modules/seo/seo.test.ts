import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listings, profiles } from '../../db/schema';
import { as } from '../../test/as';
import { BERLIN, MANCHESTER, createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp, buildPagesApp } from '../../test/helpers';

let t: TestApp;
let app: FastifyInstance;
let ids: { anna: number; hidden: number };

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://example.test' });
  await seedGeo(t.ctx);
  app = await buildPagesApp(
    t,
    '<!doctype html><html lang="en"><head><title>Directory</title></head><body><div id="root"></div><noscript>This site needs JavaScript.</noscript></body></html>',
  );
  const anna = await createAdvertiser(t.ctx, { screenName: 'Anna <Rose>', heading: 'Warm & witty', city: BERLIN });
  const hidden = await createAdvertiser(t.ctx, { screenName: 'Hidden Hera', adStatus: 'hidden' });
  ids = { anna: anna.account.id, hidden: hidden.account.id };
  await t.ctx.db
    .update(profiles)
    .set({
      about: 'Costs: $& and $1 are text, not patterns.',
      rates: { incall: { '60min': 200, quickie: null }, outcall: { dinner: 450 } },
      availability: { monday: { from: '10:00', until: '22:00' } },
      links: { messenger: { telegram: '@anna_rose' }, social: { site: 'javascript:alert(1)' } },
    })
    .where(eq(profiles.userId, ids.anna));
});
afterAll(async () => {
  await app.close();
  await t.close();
});

describe('pages search engines read', () => {
  it('serves a profile page with its name, canonical, hreflang and Open Graph tags', async () => {
    const res = await as(app).get(`/profile/${ids.anna}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const html = res.body;
    expect(html).toContain('<title>Anna &lt;Rose&gt; in Berlin - Warm &amp; witty</title>');
    expect(html).toContain(`<link rel="canonical" href="https://example.test/profile/${ids.anna}">`);
    for (const lang of ['en', 'de', 'es', 'pt', 'x-default']) expect(html).toContain(`hreflang="${lang}"`);
    expect(html).toContain('<meta property="og:title"');
    expect(html).toMatch(/<div id="root"><div id="ssr"[^>]*>.*<h1>Anna &lt;Rose&gt;<\/h1>/s);
    expect(html).not.toContain('<Rose>');
  });

  it('serves a directory page listing its profiles', async () => {
    const res = await as(app).get('/escorts/germany/berlin');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Escorts in Berlin, Germany</title>');
    // The SPA's own card markup (shared/views/directory-view), the first image fetched first and preloaded.
    expect(res.body).toContain(`<li class="card" data-testid="profile-card" data-id="${ids.anna}">`);
    expect(res.body).toContain(`<a href="/profile/${ids.anna}" class="card__link">`);
    expect(res.body).toContain('<span class="card__name-text">Anna &lt;Rose&gt;</span>');
    expect(res.body).toContain('<div id="ssr" class="ssr--framed">');
  });

  it('hands the SPA the answers of the first screen, as inert JSON that cannot end its script element', async () => {
    const res = await as(app).get('/escorts/germany/berlin');
    const match = /<script type="application\/json" id="ssr-state">(.*?)<\/script>/s.exec(res.body);
    expect(match).not.toBeNull();
    expect(match![1]).not.toContain('<');
    const state = JSON.parse(match![1]) as Array<{ key: unknown[]; data: unknown }>;
    expect(state.map((q) => q.key)).toEqual([
      ['directory', 'navigation', { category: 'escorts', country: 'germany', place: 'berlin' }],
      ['directory', 'list', { category: 'escorts', country: 'germany', place: 'berlin' }],
    ]);
    const list = state[1].data as { pages: Array<{ data: Array<{ id: number; name: string }> }> };
    expect(list.pages[0].data.map((i) => i.name)).toContain('Anna <Rose>');
    const profile = await as(app).get(`/profile/${ids.anna}`);
    expect(profile.body).toContain('id="ssr-state"');
    expect(profile.body).toContain('class="button bookmark-button" disabled=""');
  });

  it('answers 404 with the SPA for a hidden profile or an unknown country, 200 for other client routes', async () => {
    expect((await as(app).get(`/profile/${ids.hidden}`)).statusCode).toBe(404);
    expect((await as(app).get('/escorts/atlantis')).statusCode).toBe(404);
    const other = await as(app).get('/bookmarks');
    expect(other.statusCode).toBe(200);
    expect(other.body).toContain('<div id="root"></div>');
  });

  it('answers 404 with the SPA for a path no route knows and for the not-found screen itself', async () => {
    for (const url of ['/no/such/path', '/page-not-found', '/profile/2147483648', '/@nobody-by-this-name']) {
      const res = await as(app).get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.body, url).toContain('<title>Page not found</title>');
      expect(res.body, url).toContain('<div id="root">');
    }
    expect((await as(app).get('/all/germany')).statusCode).toBe(301);
  });

  it('redirects the old /all/ paths to /escorts/', async () => {
    const res = await as(app).get('/all/germany/berlin');
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/escorts/germany/berlin');
  });

  it('keeps unknown API paths as JSON 404s', async () => {
    const res = await as(app).get('/api/nothing');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found.' });
  });

  it('publishes robots.txt and a sitemap of listed profiles and directory pages', async () => {
    const robots = await as(app).get('/robots.txt');
    expect(robots.body).toContain('Sitemap: https://example.test/sitemap.xml');
    expect(robots.body).toContain('Disallow: /api/');
    const index = await as(app).get('/sitemap.xml');
    expect(index.body).toContain('<loc>https://example.test/sitemap-profiles-1.xml</loc>');
    const profiles = await as(app).get('/sitemap-profiles-1.xml');
    expect(profiles.body).toContain(`<loc>https://example.test/profile/${ids.anna}</loc>`);
    expect(profiles.body).not.toContain(`/profile/${ids.hidden}<`);
    const dir = await as(app).get('/sitemap-directory.xml');
    expect(dir.body).toContain('<loc>https://example.test/escorts/germany/berlin</loc>');
    expect((await as(app).get('/sitemap-profiles-9.xml')).statusCode).toBe(404);
    // The declared answers document; they do not serialise: the text goes out as it is, under its type.
    expect(robots.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(robots.body.startsWith('User-agent')).toBe(true);
    for (const res of [index, profiles, dir]) {
      expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
      expect(res.body.startsWith('<?xml')).toBe(true);
    }
    const past = await as(app).get('/sitemap-profiles-9.xml');
    expect(past.json()).toMatchObject({ message: expect.stringMatching(/not found/i) });
  });
});

describe('the sitemap in every language (issue 23, item 14)', () => {
  const hreflangs = (html: string) =>
    Object.fromEntries(
      [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)].map((m) => [m[1], m[2]]),
    );
  const entries = (xml: string) =>
    [...xml.matchAll(/<url><loc>([^<]+)<\/loc>(?:<lastmod>[^<]*<\/lastmod>)?((?:<xhtml:link [^>]*\/>)*)<\/url>/g)].map(
      (m) => ({
        loc: m[1].replace(/&amp;/g, '&'),
        links: Object.fromEntries(
          [...m[2].matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g)].map((l) => [
            l[1],
            l[2].replace(/&amp;/g, '&'),
          ]),
        ),
      }),
    );

  it.each([
    ['/sitemap-profiles-1.xml', () => `/profile/${ids.anna}`],
    ['/sitemap-directory.xml', () => '/escorts/germany/berlin'],
  ])('%s lists each page once per language, with the alternates the page itself names', async (file, page) => {
    const xml = (await as(app).get(file)).body;
    expect(xml).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
    const html = (await as(app).get(page())).body;
    const own = hreflangs(html);
    expect(Object.keys(own).sort()).toEqual(['de', 'en', 'es', 'pt', 'x-default']);
    const all = entries(xml);
    const mine = all.filter((e) => Object.values(own).includes(e.loc));
    // Once per language: en, de, es, pt (x-default is the English address, not a page of its own).
    expect(mine.map((e) => e.loc).sort()).toEqual([own.en, own.de, own.es, own.pt].sort());
    for (const entry of mine) expect(entry.links).toEqual(own);
    expect(new Set(all.map((e) => e.loc)).size).toBe(all.length);
  });
});

describe('the sitemap and the app clock', () => {
  it('drops a city page once the app clock passes the expiry of its only listing (the database clock has not)', async () => {
    const realNow = t.ctx.now;
    const now = realNow();
    const [tour] = await t.ctx.db
      .insert(listings)
      .values({
        profileId: ids.anna,
        cityId: MANCHESTER.id,
        countryCode: MANCHESTER.countryCode,
        kind: 'additional',
        expiresAt: new Date(now.getTime() + 86_400_000),
      })
      .returning();
    const manchester = '<loc>https://example.test/escorts/united-kingdom/manchester</loc>';
    const directory = async () => (await as(app).get('/sitemap-directory.xml')).body;
    try {
      expect(await directory()).toContain(manchester);
      t.ctx.now = () => new Date(now.getTime() + 2 * 86_400_000);
      const later = await directory();
      expect(later).not.toContain(manchester);
      expect(later).toContain('<loc>https://example.test/escorts/germany/berlin</loc>');
    } finally {
      t.ctx.now = realNow;
      await t.ctx.db.delete(listings).where(eq(listings.id, tour.id));
    }
  });
});

describe('server-rendered pages in the language of the host or ?lang= (issue 13)', () => {
  const htmlOf = (url: string, host?: string) =>
    as(app)
      .get(url, host ? { headers: { host } } : {})
      .then((r) => r.body);
  const tag = (html: string, re: RegExp) => re.exec(html)?.[1];
  const title = (html: string) => tag(html, /<title>([^<]*)<\/title>/);
  const lang = (html: string) => tag(html, /<html lang="([^"]*)"/);
  const alternate = (html: string, l: string) => tag(html, new RegExp(`hreflang="${l}" href="([^"]*)"`));

  it('a German host gets German lang, title, description and Open Graph texts on directory pages', async () => {
    const html = await htmlOf('/escorts/germany/berlin', 'de.example.test');
    expect(lang(html)).toBe('de');
    expect(title(html)).toBe('Escorts in Berlin, Deutschland');
    expect(html).toContain('<meta property="og:title" content="Escorts in Berlin, Deutschland">');
    expect(tag(html, /name="description" content="([^"]*)"/)).toMatch(/^1 Profil\. Hier werben/);
    expect(tag(html, /property="og:description" content="([^"]*)"/)).toMatch(/^1 Profil\./);
    const es = await htmlOf('/female/germany?lang=es');
    expect(lang(es)).toBe('es');
    expect(title(es)).toBe('Escorts mujeres en Alemania');
  });

  it('home, countries, profile and the SPA shell speak German on a de. host and with ?lang=de', async () => {
    for (const [url, host] of [
      ['/', 'de.example.test'],
      ['/?lang=de', undefined],
    ] as const) {
      const home = await htmlOf(url, host);
      expect(lang(home), url).toBe('de');
      expect(title(home), url).toBe('Escort-Verzeichnis: unabhängige erwachsene Begleitpersonen weltweit');
      expect(home, url).toContain(
        '<a href="/escorts/germany" class="country-card"><span class="country-card__name">Deutschland</span>',
      );
      expect(home, url).toContain('<noscript>Diese Seite braucht JavaScript. Nur für Erwachsene (18+).</noscript>');
    }
    const countries = await htmlOf('/countries', 'de.example.test');
    expect(lang(countries)).toBe('de');
    expect(title(countries)).toBe('Alle Länder');
    const profile = await htmlOf(`/profile/${ids.anna}`, 'de.example.test');
    expect(lang(profile)).toBe('de');
    expect(title(profile)).toBe('Anna &lt;Rose&gt; in Berlin - Warm &amp; witty');
    const shell = await htmlOf('/bookmarks', 'de.example.test');
    expect(lang(shell)).toBe('de');
    expect(title(shell)).toBe('Merkliste | Companion Directory');
    const pt = await htmlOf('/search?lang=pt');
    expect(lang(pt)).toBe('pt');
    expect(title(pt)).toBe('Busca | Diretório de Acompanhantes');
    const en = await htmlOf('/countries');
    expect(lang(en)).toBe('en');
    expect(title(en)).toBe('All countries');
  });

  it('/feed, /help, /shop and /what-you-get are server-rendered in the page language', async () => {
    const feed = await htmlOf('/feed', 'de.example.test');
    expect(title(feed)).toBe('Neuigkeiten');
    expect(feed).toContain('<h2>Neu verifiziert</h2>');
    const help = await htmlOf('/help?lang=es');
    expect(lang(help)).toBe('es');
    expect(title(help)).toBe('Ayuda');
    expect(help).toContain('<h3>¿Qué es este sitio?</h3>');
    const helpEn = await htmlOf('/help');
    expect(title(helpEn)).toBe('Get Help');
    expect(tag(helpEn, /name="description" content="([^"]*)"/)).toMatch(/^Answers to the questions/);
    expect(title(await htmlOf('/shop', 'de.example.test'))).toBe('Shop');
    expect(lang(await htmlOf('/what-you-get', 'de.example.test'))).toBe('de');
  });

  it('hreflang alternates and canonical: English never on the German host, x-default listed', async () => {
    // PUBLIC_URL names the neutral host; a request through de.example.test is German there.
    const de = await htmlOf('/escorts/germany', 'de.example.test');
    expect(alternate(de, 'en')).toBe('https://example.test/escorts/germany');
    expect(alternate(de, 'x-default')).toBe('https://example.test/escorts/germany');
    expect(alternate(de, 'de')).toBe('https://de.example.test/escorts/germany');
    expect(alternate(de, 'es')).toBe('https://example.test/escorts/germany?lang=es');
    expect(tag(de, /rel="canonical" href="([^"]*)"/)).toBe('https://de.example.test/escorts/germany');
    // On the neutral host every language is ?lang=, and the query of the request does not leak in.
    const es = await htmlOf('/escorts/germany?lang=es');
    expect(alternate(es, 'en')).toBe('https://example.test/escorts/germany');
    expect(alternate(es, 'de')).toBe('https://example.test/escorts/germany?lang=de');
    expect(alternate(es, 'pt')).toBe('https://example.test/escorts/germany?lang=pt');
    expect(tag(es, /rel="canonical" href="([^"]*)"/)).toBe('https://example.test/escorts/germany?lang=es');
  });

  it('never builds a link on a Host header the site does not answer to (issue 8, item 10)', async () => {
    const forged = await htmlOf('/escorts/germany', 'de.evil.example');
    expect(forged).not.toContain('evil.example');
    expect(tag(forged, /rel="canonical" href="([^"]*)"/)).toMatch(/^https:\/\/example\.test\/escorts\/germany/);
    const robots = await as(app).get('/robots.txt', { headers: { host: 'evil.example' } });
    expect(robots.body).toContain('Sitemap: https://example.test/sitemap.xml');
    const { baseUrl, trustedHost } = await import('./seo.service');
    const ctx = { ...t.ctx, env: { ...t.ctx.env, PUBLIC_URL: undefined, SITE_HOSTS: 'site.test' } };
    const local = `localhost:${t.ctx.env.PORT}`;
    expect(baseUrl(ctx, 'evil.example')).toBe(`http://${local}`);
    expect(trustedHost(ctx, 'de.evil.example:3000')).toBe(local);
    expect(trustedHost(ctx, 'site.test/"><script>')).toBe(local);
    expect(trustedHost(ctx, 'de.site.test:8080')).toBe('de.site.test:8080');
    expect(trustedHost(ctx, 'LOCALHOST:5173')).toBe('localhost:5173');
    expect(trustedHost(ctx, '127.0.0.1:3000')).toBe('127.0.0.1:3000');
  });

  it('without PUBLIC_URL: de.host strips to its neutral twin, a .de host names English by ?lang=en', async () => {
    const { languageUrls } = await import('./seo.service');
    const ctx = { ...t.ctx, env: { ...t.ctx.env, PUBLIC_URL: undefined, SITE_HOSTS: 'site.test, site.de' } };
    expect(languageUrls(ctx, 'de.site.test:3000', '/countries?lang=de')).toEqual({
      en: 'http://site.test:3000/countries',
      de: 'http://de.site.test:3000/countries',
      es: 'http://site.test:3000/countries?lang=es',
      pt: 'http://site.test:3000/countries?lang=pt',
      'x-default': 'http://site.test:3000/countries',
    });
    expect(languageUrls(ctx, 'site.de', '/')).toEqual({
      en: 'http://site.de/?lang=en',
      de: 'http://site.de/',
      es: 'http://site.de/?lang=es',
      pt: 'http://site.de/?lang=pt',
      'x-default': 'http://site.de/?lang=en',
    });
    expect(languageUrls(ctx, 'site.test', '/shop').de).toBe('http://site.test/shop?lang=de');
  });
});

describe('the ten screens of the languages journey, as the server sends them (issue 13)', () => {
  const tag = (html: string, re: RegExp) => re.exec(html)?.[1];
  const pages = () => [
    '/',
    '/escorts/germany',
    '/escorts/germany/berlin',
    `/profile/${ids.anna}`,
    '/search?q=Berl',
    '/countries',
    '/feed',
    '/shop',
    '/help',
    `/edit/account/${ids.anna}`,
  ];
  const head = async (url: string, host?: string) => {
    const res = await as(app).get(url, host ? { headers: { host } } : {});
    expect(res.statusCode, url).toBe(200);
    const html = res.body;
    return {
      lang: tag(html, /<html lang="([^"]*)"/),
      title: tag(html, /<title>([^<]*)<\/title>/),
      description: tag(html, /<meta name="description" content="([^"]*)"/),
      alternates: Object.fromEntries([...html.matchAll(/hreflang="([^"]+)" href="([^"]+)"/g)].map((m) => [m[1], m[2]])),
    };
  };

  for (const [lang, host, query] of [
    ['de', 'de.example.test', ''],
    ['es', undefined, 'lang=es'],
  ] as const) {
    it(`${lang}: lang, a title and description of that language, every alternate and x-default`, async () => {
      for (const url of pages()) {
        const path = url.split('?')[0];
        const own = await head(query ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url, host);
        const english = await head(url);
        expect(own.lang, url).toBe(lang);
        expect(english.lang, url).toBe('en');
        expect(own.title, url).toBeTruthy();
        expect(own.description, url).toBeTruthy();
        // A profile's title and description are the advertiser's own words ("Shop" is German too);
        // every other title and description is the language's.
        if (!path.startsWith('/profile/')) {
          if (path !== '/shop') expect(own.title, url).not.toBe(english.title);
          expect(own.description, url).not.toBe(english.description);
        }
        expect(own.alternates, url).toEqual({
          en: `https://example.test${path}`,
          de: lang === 'de' ? `https://de.example.test${path}` : `https://example.test${path}?lang=de`,
          es: `https://example.test${path}?lang=es`,
          pt: `https://example.test${path}?lang=pt`,
          'x-default': `https://example.test${path}`,
        });
        expect(english.alternates, url).toEqual({ ...own.alternates, de: `https://example.test${path}?lang=de` });
      }
    });
  }
});

describe('the profile view rendered on the server (src/shared/views/profile-view.tsx)', () => {
  it('is the first HTML of /profile/{id}: name, rates, hours, phone to tap, links made safe', async () => {
    const html = (await as(app).get(`/profile/${ids.anna}`)).body;
    const ssr = html.slice(html.indexOf('<div id="ssr"'));
    expect(ssr).toContain('data-testid="profile-name"><h1>Anna &lt;Rose&gt;</h1>');
    expect(ssr).toContain('Warm &amp; witty');
    expect(ssr).toContain('Berlin<span class="muted">, Germany</span>');
    // Rates in the profile's currency, not offered shown as a dash; the weekly hours.
    expect(ssr).toMatch(/<th scope="row">1 hour<\/th><td>€200<\/td>/);
    expect(ssr).toMatch(
      /<th scope="row">Dinner date<\/th><td><span class="muted" aria-label="Not offered">—<\/span><\/td><td>€450<\/td>/,
    );
    expect(ssr).toContain('<th scope="row">Monday</th><td>10:00 – 22:00</td>');
    // Phone as a tel: link without spaces, and the mention note.
    expect(ssr).toContain('href="tel:+442079460000"');
    expect(ssr).toContain('Please mention that you found this profile on Companion Directory.');
    expect(ssr).toContain('href="https://t.me/anna_rose"');
    expect(ssr).not.toContain('href="javascript:');
    // A visitor sees no edit links; "$&" in a profile's text stays text.
    expect(ssr).not.toContain('?edit=');
    expect(ssr).toContain('Costs: $&amp; and $1 are text, not patterns.');
  });

  it('speaks the language of ?lang= and of a de. host', async () => {
    const de = (await as(app).get(`/profile/${ids.anna}?lang=de`)).body;
    expect(de).toContain('<h2 id="profile-' + ids.anna + '-rates">Preise</h2>');
    expect(de).toContain('Montag');
    const host = (await as(app).get(`/profile/${ids.anna}`, { headers: { host: 'de.example.test' } })).body;
    expect(host).toContain('Preise');
    const pt = (await as(app).get(`/profile/${ids.anna}?lang=pt`)).body;
    expect(pt).toContain('Valores');
    expect(pt).not.toContain('Tarifas');
  });

  it('comes as profile.view from GET /api/getProfile/{id}?render=1, with edit links for the owner', async () => {
    const plain = (await as(app).get(`/api/getProfile/${ids.anna}`)).json();
    expect(plain.profile.view).toBeUndefined();
    const visitor = (await as(app).get(`/api/getProfile/${ids.anna}?render=1`)).json();
    expect(visitor.profile.view).toContain('<h1>Anna &lt;Rose&gt;</h1>');
    expect(visitor.profile.view).not.toContain('?edit=');
    const owner = await createSession(t.ctx, ids.anna);
    const own = (await as(app, owner).get(`/api/getProfile/${ids.anna}?render=1&lang=es`)).json();
    expect(own.profile.can_edit).toBe(true);
    expect(own.profile.view).toContain(`href="/edit/${ids.anna}?edit=rates"`);
    expect(own.profile.view).toContain('Tarifas');
    const byName = (await as(app).get(`/api/getProfileByName/${encodeURIComponent('Anna <Rose>')}?render=1`)).json();
    expect(byName.profile.view).toContain('<h1>Anna &lt;Rose&gt;</h1>');
  });
});
