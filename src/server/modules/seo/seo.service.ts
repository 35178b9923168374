// What search engines read: sitemap, robots, and the head and first HTML of public pages, answered
// before the SPA takes over.
import { coercedId } from '#shared/api/fields.ts';
import { ProfileName, SearchBody, type DirectoryPage } from '#shared/schemas/directory.ts';
import { HELP_FAQ } from '#shared/schemas/help.ts';
import { CATEGORIES, LANGUAGES, SLUG_PATTERN, type Category, type Language } from '#shared/constants.ts';
import { hostLanguage } from '#shared/rules/language.ts';
import { matchRoute } from '#shared/routes.ts';
import { intlLocale } from '#shared/views/format.ts';
import { PICTURE_SIZES } from '#shared/views/picture.tsx';
import { HIGH_PRIORITY_IMAGES } from '#shared/views/directory-view.tsx';
import { ssrKeys } from '#shared/views/ssr-state.ts';
import { filterKey, fromQuery, hasFilters } from '#shared/rules/list-filters.ts';
import type { AppContext } from '../../context';
import { AppError, notFound } from '../../lib/errors';
import { translator } from '../../lib/i18n';
import * as directory from '../directory/directory.service';
import { feed } from '../directory/feed.service';
import * as repo from './seo.repo';
import type { PageRenderer } from './seo.html';
import type { LanguageUrls, PageMeta } from './seo.head';
import { escapeHtml } from '../../lib/html';

// Profiles per sitemap file: each is listed once per language (4), under the protocol's 50,000 URLs a file.
export const SITEMAP_CHUNK = 10_000;

export function baseUrl(ctx: AppContext, host?: string) {
  if (ctx.env.PUBLIC_URL) return ctx.env.PUBLIC_URL.replace(/\/$/, '');
  return `http://${trustedHost(ctx, host)}`;
}

const LOCAL_HOST = /^(localhost|[a-z0-9-]+\.localhost|127\.0\.0\.1|\[::1\])$/;
const HOST_SYNTAX = /^([a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(:\d{1,5})?$/;

/**
 * The request's Host when the site answers to that name (PUBLIC_URL's, SITE_HOSTS, localhost, each also
 * with `de.` in front, the German host of decision 0600), else the configured one: a Host header the
 * client made up never reaches a link, a sitemap or robots.txt (issue 8, item 10).
 */
export function trustedHost(ctx: AppContext, host: string | undefined): string {
  const configured = ctx.env.PUBLIC_URL ? new URL(ctx.env.PUBLIC_URL).host : `localhost:${ctx.env.PORT}`;
  const value = (host ?? '').toLowerCase();
  if (!HOST_SYNTAX.test(value)) return configured;
  const name = value.replace(/:\d+$/, '');
  const bare = name.startsWith('de.') ? name.slice(3) : name;
  const names = [
    ...(ctx.env.PUBLIC_URL ? [new URL(ctx.env.PUBLIC_URL).hostname] : []),
    ...(ctx.env.SITE_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()),
  ].filter(Boolean);
  return LOCAL_HOST.test(bare) || names.includes(bare) || names.includes(name) ? value : configured;
}

// Sitemaps are XML: the same five entities as HTML.
const escapeXml = escapeHtml;

export function robots(base: string) {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    'Disallow: /edit/',
    'Disallow: /admin/',
    'Disallow: /checkout/',
    'Disallow: /transactions/',
    'Disallow: /verify/',
    'Disallow: /recover/',
    `Sitemap: ${base}/sitemap.xml`,
    '',
  ].join('\n');
}

/** Sitemap index: one file of directory pages, then profile files of SITEMAP_CHUNK each. */
export async function sitemapIndex(ctx: AppContext, base: string) {
  const total = await repo.countListedProfiles(ctx.db);
  const files = ['/sitemap-directory.xml'];
  for (let i = 0; i * SITEMAP_CHUNK < total; i++) files.push(`/sitemap-profiles-${i + 1}.xml`);
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    files.map((f) => `  <sitemap><loc>${escapeXml(base + f)}</loc></sitemap>`).join('\n') +
    '\n</sitemapindex>\n'
  );
}

/**
 * Each page once per language, every entry naming all its language versions (and x-default) as
 * xhtml:link alternates: the same addresses as the page's own hreflang links (languageUrls), so a
 * search engine finds the German and Spanish pages without crawling the English one first.
 */
function urlset(ctx: AppContext, host: string | undefined, pages: Array<{ path: string; lastmod?: string }>) {
  const entries = pages.flatMap(({ path, lastmod }) => {
    const urls = languageUrls(ctx, host, path);
    const links = (Object.entries(urls) as Array<[string, string]>)
      .map(([lang, href]) => `<xhtml:link rel="alternate" hreflang="${lang}" href="${escapeXml(href)}"/>`)
      .join('');
    return LANGUAGES.map(
      (lang) =>
        `  <url><loc>${escapeXml(urls[lang])}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}${links}</url>`,
    );
  });
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' +
    entries.join('\n') +
    '\n</urlset>\n'
  );
}

export async function sitemapDirectory(ctx: AppContext, host: string | undefined) {
  const pages = await repo.directoryPages(ctx.db, ctx.now());
  const paths = ['/', '/countries'];
  const countries = new Set<string>();
  for (const p of pages) {
    if (!countries.has(p.country)) {
      countries.add(p.country);
      paths.push(`/escorts/${p.country}`);
    }
    if (p.city) paths.push(`/escorts/${p.country}/${p.city}`);
  }
  return urlset(
    ctx,
    host,
    paths.map((path) => ({ path })),
  );
}

export async function sitemapProfiles(ctx: AppContext, host: string | undefined, n: number) {
  const rows = await repo.listedProfileIds(ctx.db, SITEMAP_CHUNK, (n - 1) * SITEMAP_CHUNK);
  if (!rows.length) return null;
  return urlset(
    ctx,
    host,
    rows.map((r) => ({ path: `/profile/${r.user_id}`, lastmod: r.updated_at.slice(0, 10) })),
  );
}

/**
 * The address of every language version of `path` seen from a request on `host`. English (and x-default)
 * lives on the neutral host: PUBLIC_URL, or the request's host without its `de.`; German on the German
 * host when the request came through one; the others are `?lang=` on the neutral host. A German host
 * with no neutral twin (example.de without PUBLIC_URL) names every other language by `?lang=`,
 * English included, because its bare address is German.
 */
export function languageUrls(ctx: AppContext, host: string | undefined, path: string): LanguageUrls {
  const clean = path.split(/[?#]/)[0].replace(/\/+$/, '') || '/';
  const publicUrl = ctx.env.PUBLIC_URL?.replace(/\/$/, '');
  const proto = publicUrl ? new URL(publicUrl).protocol : 'http:';
  const requestHost = trustedHost(ctx, host);
  const germanHost = hostLanguage(requestHost) === 'de';
  let neutral: string | null = null;
  if (publicUrl && hostLanguage(new URL(publicUrl).host) !== 'de') neutral = publicUrl;
  else if (!germanHost) neutral = `${proto}//${requestHost}`;
  else if (requestHost.startsWith('de.')) neutral = `${proto}//${requestHost.slice(3)}`;
  const german = germanHost ? `${proto}//${requestHost}` : null;
  const urls = {} as LanguageUrls;
  for (const lang of LANGUAGES) {
    if (lang === 'de' && german) urls.de = german + clean;
    else if (neutral) urls[lang] = neutral + clean + (lang === 'en' ? '' : `?lang=${lang}`);
    else urls[lang] = `${german}${clean}?lang=${lang}`;
  }
  urls['x-default'] = urls.en;
  return urls;
}

/** A country's name in the page's language (Intl, as the SPA shows it), else the stored English one. */
export function countryLabel(code: string, fallback: string, lang: Language): string {
  try {
    return new Intl.DisplayNames([intlLocale(lang)], { type: 'region' }).of(code.toUpperCase()) ?? fallback;
  } catch {
    return fallback;
  }
}

function withPath(url: string, path: string) {
  const u = new URL(url);
  u.pathname = path;
  return u.toString();
}

/** The first listing images, fetched before anything else (their cards carry fetchpriority=high). */
function cardPreloads(page: DirectoryPage): NonNullable<PageMeta['preload']> {
  return page.data
    .slice(0, HIGH_PRIORITY_IMAGES)
    .flatMap((item) => (item.avatar ? [{ picture: item.avatar, sizes: PICTURE_SIZES.card }] : []));
}

/** Meta and first HTML of a public page, or null when the path is not one search engines should read. */
export async function pageMeta(
  ctx: AppContext,
  path: string,
  urls: LanguageUrls,
  lang: Language,
  render: PageRenderer,
): Promise<PageMeta | null> {
  const clean = path.split('?')[0].replace(/\/+$/, '') || '/';
  const match = matchRoute(clean);
  // A list's filters (docs/decisions/0324): the first paint is the filtered list; search engines are kept
  // off the combinations (noindex, and the canonical, made without the query, names the whole list).
  const query = new URLSearchParams(path.includes('?') ? path.slice(path.indexOf('?')).split('#')[0] : '');
  const listFilters = fromQuery(query);
  const filtered = hasFilters(listFilters);
  const t = translator(lang, 'pages');
  const statement = t('seo.statement');
  // The canonical address of a page is its own language version (docs/decisions/0600).
  const canonical = urls[lang];
  const notFoundPage: PageMeta = {
    title: t('titles:notFound'),
    description: statement,
    canonical,
    status: 404,
    body: '',
  };
  // A path no route knows, and the not-found screen itself, answer 404 so that search engines drop them.
  if (!match || match.route.name === 'page-not-found') return notFoundPage;
  const { route, params } = match;
  const simple = (title: string, description: string, body = ''): PageMeta => ({
    title,
    description,
    canonical,
    status: 200,
    body: `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(description)}</p>${body}`,
  });
  try {
    if (route.name === 'home' || route.name === 'countries') {
      const { data } = await directory.listCountries(ctx);
      const list = `<ul>${data
        .map(
          (c) =>
            `<li><a href="/escorts/${c.slug}">${escapeHtml(countryLabel(c.code, c.name, lang))}</a> (${escapeHtml(
              t('directory:countries.count', { count: c.count }),
            )})</li>`,
        )
        .join('')}</ul>`;
      if (route.name === 'countries') return simple(t('titles:countries'), t('directory:countries.lead'), list);
      return {
        title: t('seo.homeTitle'),
        description: statement,
        canonical,
        status: 200,
        body: render.home(data),
        framed: true,
        state: [{ key: ssrKeys.countries('escorts'), data }],
      };
    }
    if (route.name === 'search') {
      // Results are the first screen too (issue 14); search engines are asked not to index them.
      const q = (new URLSearchParams(path.includes('?') ? path.slice(path.indexOf('?')) : '').get('q') ?? '').trim();
      const valid = SearchBody.safeParse({ q }).success;
      const page = valid
        ? await directory.search(ctx, q, 1, undefined, lang, filtered ? listFilters : undefined)
        : null;
      return {
        // As the SPA titles it (the shell adds the site's name).
        title: `${valid ? t('directory:search.resultsFor', { q }) : t('titles:search')} | ${t('common:siteName')}`,
        description: statement,
        canonical,
        status: 200,
        noindex: true,
        body: render.search(q, page, filtered),
        framed: true,
        state: page
          ? [{ key: ssrKeys.search(q, filterKey(listFilters)), data: { pages: [page], pageParams: [1] } }]
          : [],
        preload: page ? cardPreloads(page) : [],
      };
    }
    if (route.name === 'what-you-get') return simple(t('money:whatYouGet.title'), t('money:whatYouGet.lead'));
    if (route.name === 'shop') return simple(t('money:shop.title'), t('money:shop.lead'));
    if (route.name === 'help') {
      const faq = HELP_FAQ.map(
        (k) => `<h3>${escapeHtml(t(`help.faq.${k}.q`))}</h3><p>${escapeHtml(t(`help.faq.${k}.a`))}</p>`,
      ).join('');
      return simple(t('help.title'), t('help.lead'), `<h2>${escapeHtml(t('help.faqTitle'))}</h2>${faq}`);
    }
    if (route.name === 'feed') {
      const { data } = await feed(ctx, 'profiles', 1, lang);
      const list = data
        .map((e) => `<li><a href="/profile/${e.profile.id}">${escapeHtml(e.profile.name)}</a></li>`)
        .join('');
      return simple(t('feed.title'), t('feed.lead'), `<h2>${escapeHtml(t('feed.profiles'))}</h2><ul>${list}</ul>`);
    }
    if (route.name === 'profile' || route.name === 'profile-by-name') {
      // The API's own path rules: an id beyond the database's range or a name with a NUL names nobody.
      const by = route.name === 'profile' ? coercedId().safeParse(params.id) : ProfileName.safeParse(params.name);
      if (!by.success) throw notFound();
      const profile = await directory.getProfile(
        ctx,
        typeof by.data === 'number' ? { id: by.data } : { name: by.data },
        null,
        { countView: false, lang },
      );
      const named = profile.city
        ? t('seo.profileIn', { name: profile.screen_name, city: profile.city.name })
        : profile.screen_name;
      return {
        title: `${named}${profile.heading ? ` - ${profile.heading}` : ''}`,
        description: (profile.about ?? profile.heading ?? '').replace(/\s+/g, ' ').slice(0, 160),
        canonical: withPath(urls[lang], `/profile/${profile.user_id}`),
        image: profile.avatar ? new URL(urls['x-default']).origin + profile.avatar.src : undefined,
        status: 200,
        body: render.profile(profile),
        framed: true,
        // The SPA asks again at once: its call counts the visit (this render does not) and knows the
        // visitor (a signed-in owner sees the edit links).
        state: [
          {
            key: ssrKeys.profile(typeof by.data === 'number' ? { id: by.data } : { name: by.data }),
            data: profile,
            stale: true,
          },
        ],
        preload: profile.avatar ? [{ picture: profile.avatar, sizes: PICTURE_SIZES.avatar }] : [],
      };
    }
    if ((CATEGORIES as readonly string[]).includes(route.name)) {
      const category = route.name as Category;
      const { country, place } = params;
      if (!SLUG_PATTERN.test(country) || (place && !SLUG_PATTERN.test(place))) return null;
      const filter = { category, country, place };
      const [nav, page] = await Promise.all([
        directory.getNavigation(ctx, filter, undefined, lang),
        directory.getDirectory(ctx, filtered ? { ...filter, filters: listFilters } : filter, 1, undefined, lang),
      ]);
      const countryName = countryLabel(nav.country.code, nav.country.name, lang);
      const title = t('directory:list.heading', {
        category: t(`titles:${category}`),
        location: nav.place ? `${nav.place.name}, ${countryName}` : countryName,
      });
      const origin = new URL(urls['x-default']).origin;
      return {
        title,
        description: t('seo.directoryDescription', {
          count: nav.counts[category] ?? page.total,
          statement,
        }),
        canonical,
        ...(filtered ? { noindex: true } : {}),
        image: page.data[0]?.avatar ? origin + page.data[0].avatar.src : undefined,
        status: 200,
        body: render.listing(filter, nav, page, filtered),
        framed: true,
        state: [
          { key: ssrKeys.navigation(filter), data: nav },
          { key: ssrKeys.list(filter, filterKey(listFilters)), data: { pages: [page], pageParams: [1] } },
        ],
        preload: cardPreloads(page),
      };
    }
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 404) return notFoundPage;
    throw err;
  }
  return null;
}
