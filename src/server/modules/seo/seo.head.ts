// The <head> of a public page: title, description, canonical, hreflang alternates and Open Graph tags.
// Its own file so that the page renderer (seo.html) and the page builder (seo.service) both use it
// without importing each other (issue 22 item 3).
import type { Language } from '#shared/constants.ts';
import type { Picture } from '#shared/schemas/media.ts';
import type { SsrQuery } from '#shared/views/ssr-state.ts';
import { escapeHtml } from '../../lib/html';

const escapeXml = escapeHtml;

export interface PageMeta {
  title: string;
  description: string;
  canonical: string;
  image?: string;
  /** Pre-rendered HTML shown until the SPA renders. */
  body: string;
  status: number;
  /** The body is the app's own markup (top bar, <main>, the screen), not a plain outline. */
  framed?: boolean;
  /** The SPA's query cache for the first screen (docs/decisions/0705). */
  state?: SsrQuery[];
  /** Not for search engines (search results). */
  noindex?: boolean;
  /** Images of the largest paint, preloaded from the head with fetchpriority=high. */
  preload?: Array<{ picture: Picture; sizes: string }>;
}

/** Where each language version of a path lives, plus x-default (docs/decisions/0600). */
export type LanguageUrls = Record<Language | 'x-default', string>;

export function alternates(urls: LanguageUrls) {
  return (Object.entries(urls) as Array<[string, string]>)
    .map(([lang, href]) => `<link rel="alternate" hreflang="${lang}" href="${escapeXml(href)}">`)
    .join('\n    ');
}

export function renderHead(meta: PageMeta, urls: LanguageUrls, path: string) {
  const tags = [
    `<title>${escapeHtml(meta.title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}">`,
    `<link rel="canonical" href="${escapeXml(meta.canonical)}">`,
    ...(meta.noindex ? ['<meta name="robots" content="noindex">'] : []),
    alternates(urls),
    `<meta property="og:type" content="${path.startsWith('/profile/') ? 'profile' : 'website'}">`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}">`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}">`,
    `<meta property="og:url" content="${escapeXml(meta.canonical)}">`,
  ];
  if (meta.image) tags.push(`<meta property="og:image" content="${escapeXml(meta.image)}">`);
  return tags.join('\n    ');
}
