// What search engines read: sitemap, robots, and the head and first HTML of public pages, answered
// before the SPA takes over.
import { coercedId } from '#shared/api/fields.ts';
import { ProfileName } from '#shared/schemas/directory.ts';
import { CATEGORIES, LANGUAGES, SLUG_PATTERN, type Category } from '#shared/constants.ts';
import { matchRoute } from '#shared/routes.ts';
import type { AppContext } from '../../context';
import { AppError, notFound } from '../../lib/errors';
import * as directory from '../directory/directory.service';
import * as repo from './seo.repo';

export const SITEMAP_CHUNK = 10_000;

export function baseUrl(ctx: AppContext, host?: string) {
  if (ctx.env.PUBLIC_URL) return ctx.env.PUBLIC_URL.replace(/\/$/, '');
  return `http://${host ?? `localhost:${ctx.env.PORT}`}`;
}

const escapeXml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c]!);
export const escapeHtml = escapeXml;

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

function urlset(urls: Array<{ loc: string; lastmod?: string }>) {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    urls
      .map((u) => `  <url><loc>${escapeXml(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ''}</url>`)
      .join('\n') +
    '\n</urlset>\n'
  );
}

export async function sitemapDirectory(ctx: AppContext, base: string) {
  const pages = await repo.directoryPages(ctx.db);
  const urls = [`${base}/`, `${base}/countries`];
  const countries = new Set<string>();
  for (const p of pages) {
    if (!countries.has(p.country)) {
      countries.add(p.country);
      urls.push(`${base}/escorts/${p.country}`);
    }
    if (p.city) urls.push(`${base}/escorts/${p.country}/${p.city}`);
  }
  return urlset(urls.map((loc) => ({ loc })));
}

export async function sitemapProfiles(ctx: AppContext, base: string, n: number) {
  const rows = await repo.listedProfileIds(ctx.db, SITEMAP_CHUNK, (n - 1) * SITEMAP_CHUNK);
  if (!rows.length) return null;
  return urlset(rows.map((r) => ({ loc: `${base}/profile/${r.user_id}`, lastmod: r.updated_at.slice(0, 10) })));
}

export interface PageMeta {
  title: string;
  description: string;
  canonical: string;
  image?: string;
  /** Pre-rendered HTML shown until the SPA renders. */
  body: string;
  status: number;
}

function alternates(base: string, path: string) {
  // Language is chosen by host (de.) or ?lang=; each language version of a page is linked.
  const links = LANGUAGES.map(
    (l) =>
      `<link rel="alternate" hreflang="${l}" href="${escapeXml(base + path + (l === 'en' ? '' : `${path.includes('?') ? '&' : '?'}lang=${l}`))}">`,
  );
  links.push(`<link rel="alternate" hreflang="x-default" href="${escapeXml(base + path)}">`);
  return links.join('\n    ');
}

export function renderHead(meta: PageMeta, base: string, path: string) {
  const tags = [
    `<title>${escapeHtml(meta.title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}">`,
    `<link rel="canonical" href="${escapeXml(meta.canonical)}">`,
    alternates(base, path),
    `<meta property="og:type" content="${path.startsWith('/profile/') ? 'profile' : 'website'}">`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}">`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}">`,
    `<meta property="og:url" content="${escapeXml(meta.canonical)}">`,
  ];
  if (meta.image) tags.push(`<meta property="og:image" content="${escapeXml(meta.image)}">`);
  return tags.join('\n    ');
}

const SITE_STATEMENT =
  'Independent adult companions advertise here. Only adults, for time and companionship; the site arranges no bookings.';

/** Meta and first HTML of a public page, or null when the path is not one search engines should read. */
export async function pageMeta(
  ctx: AppContext,
  path: string,
  base: string,
  renderProfile: (profile: Awaited<ReturnType<typeof directory.getProfile>>) => string,
): Promise<PageMeta | null> {
  const clean = path.split('?')[0].replace(/\/+$/, '') || '/';
  const match = matchRoute(clean);
  if (!match) return null;
  const { route, params } = match;
  try {
    if (route.name === 'home') {
      const { data } = await directory.listCountries(ctx);
      return {
        title: 'Escort directory: verified independent companions worldwide',
        description: SITE_STATEMENT,
        canonical: `${base}/`,
        status: 200,
        body: `<h1>Escort directory</h1><p>${escapeHtml(SITE_STATEMENT)}</p><ul>${data
          .map((c) => `<li><a href="/escorts/${c.slug}">${escapeHtml(c.name)} (${c.count})</a></li>`)
          .join('')}</ul>`,
      };
    }
    if (route.name === 'profile' || route.name === 'profile-by-name') {
      // The API's own path rules: an id beyond the database's range or a name with a NUL names nobody.
      const by = route.name === 'profile' ? coercedId().safeParse(params.id) : ProfileName.safeParse(params.name);
      if (!by.success) throw notFound();
      const profile = await directory.getProfile(
        ctx,
        typeof by.data === 'number' ? { id: by.data } : { name: by.data },
        null,
        { countView: false },
      );
      const where = profile.city ? ` in ${profile.city.name}` : '';
      return {
        title: `${profile.screen_name}${where}${profile.heading ? ` - ${profile.heading}` : ''}`,
        description: (profile.about ?? profile.heading ?? '').replace(/\s+/g, ' ').slice(0, 160),
        canonical: `${base}/profile/${profile.user_id}`,
        image: profile.avatar ? base + profile.avatar.src : undefined,
        status: 200,
        body: renderProfile(profile),
      };
    }
    if ((CATEGORIES as readonly string[]).includes(route.name)) {
      const category = route.name as Category;
      const { country, place } = params;
      if (!SLUG_PATTERN.test(country) || (place && !SLUG_PATTERN.test(place))) return null;
      const filter = { category, country, place };
      const [nav, page] = await Promise.all([
        directory.getNavigation(ctx, filter),
        directory.getDirectory(ctx, filter, 1),
      ]);
      return {
        title: nav.title,
        description: `${nav.counts[category] ?? page.total} profiles. ${SITE_STATEMENT}`,
        canonical: `${base}${clean}`,
        image: page.data[0]?.avatar ? base + page.data[0].avatar.src : undefined,
        status: 200,
        body: `<h1>${escapeHtml(nav.title)}</h1><ul>${page.data
          .map(
            (i) =>
              `<li><a href="/profile/${i.id}">${escapeHtml(i.name)}</a>${i.heading ? ` - ${escapeHtml(i.heading)}` : ''}${
                i.user.city ? ` (${escapeHtml(i.user.city)})` : ''
              }</li>`,
          )
          .join('')}</ul>`,
      };
    }
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 404) {
      return {
        title: 'Page not found',
        description: SITE_STATEMENT,
        canonical: `${base}${clean}`,
        status: 404,
        body: '',
      };
    }
    throw err;
  }
  return null;
}
