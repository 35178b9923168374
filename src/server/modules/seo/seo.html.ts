import { createElement, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { SEARCH_MIN_CHARS, type Category, type Language } from '#shared/constants.ts';
import type { DirectoryPage, Navigation, Profile } from '#shared/schemas/directory.ts';
import type { Picture } from '#shared/schemas/media.ts';
import { ProfileView } from '#shared/views/profile-view.tsx';
import {
  CardGridView,
  DirectoryHeadView,
  HomeView,
  SearchHeadView,
  type CountryCountView,
} from '#shared/views/directory-view.tsx';
import { SSR_STATE_ID, type SsrQuery } from '#shared/views/ssr-state.ts';
import { matchRoute, type RouteMeta } from '#shared/routes.ts';
import { translator } from '../../lib/i18n';
import { alternates, renderHead, type LanguageUrls, type PageMeta } from './seo.head';
import { escapeHtml } from '../../lib/html';

/**
 * The SPA's index.html in the page's language: `<html lang>`, the noscript text and either the public
 * page's head tags and first HTML (meta) or the route's own title, as the shell will title it. A page
 * with a first screen also gets the preload of its largest images and the answers the SPA would ask for
 * (its query cache, as JSON), so that the SPA's first render is that screen (docs/decisions/0705).
 */
export function injectPage(
  indexHtml: string,
  meta: PageMeta | null,
  urls: LanguageUrls,
  lang: Language,
  path: string,
): string {
  const t = translator(lang, 'common');
  let html = indexHtml
    .replace(/<html lang="[^"]*"/, `<html lang="${lang}"`)
    .replace(/<noscript>[^<]*<\/noscript>/, () => `<noscript>${escapeHtml(t('pages:seo.noscript'))}</noscript>`);
  let head: string;
  if (meta) head = [renderHead(meta, urls, path.split('#')[0]), ...(meta.preload ?? []).map(preloadTag)].join('\n    ');
  else {
    const route = matchRoute(path.split(/[?#]/)[0])?.route;
    const site = t('siteName');
    const page = route ? t(`titles:${route.title}`) : '';
    const title = escapeHtml(page && page !== site ? `${page} | ${site}` : site);
    const description = escapeHtml(t('pages:seo.statement'));
    // Every HTML answer names its language versions (issue 13), the SPA's own screens too.
    head = [
      `<title>${title}</title>`,
      `<meta name="description" content="${description}">`,
      alternates(urls),
      `<meta property="og:title" content="${title}">`,
      `<meta property="og:description" content="${description}">`,
    ].join('\n    ');
  }
  html = /<title>[^<]*<\/title>/.test(html)
    ? html.replace(/<title>[^<]*<\/title>/, () => head)
    : html.replace('</head>', () => `    ${head}\n  </head>`);
  if (!meta) return html;
  const state = meta.state?.length
    ? `<script type="application/json" id="${SSR_STATE_ID}">${jsonForScript(meta.state)}</script>`
    : '';
  // A function replacement: a "$&" or "$1" in a profile's text must stay text.
  html = html.replace(
    /<div id="root"><\/div>/,
    () => `<div id="root"><div id="ssr"${meta.framed ? ' class="ssr--framed"' : ''}>${meta.body}</div></div>${state}`,
  );
  return html;
}

/** JSON inside <script>: no "</script>" or "<!--" can end or bend the element. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * A preload the browser uses for the <picture> of a card or an avatar: the WebP set (what every browser
 * that knows imagesrcset picks from the <source>) with the same sizes, fetched first.
 */
function preloadTag({ picture, sizes }: { picture: Picture; sizes: string }): string {
  const set = picture.webp_srcset || picture.srcset;
  const type = picture.webp_srcset ? ' type="image/webp"' : '';
  if (!set) return `<link rel="preload" as="image" href="${escapeHtml(picture.src)}" fetchpriority="high">`;
  return `<link rel="preload" as="image" imagesrcset="${escapeHtml(set)}" imagesizes="${escapeHtml(sizes)}"${type} fetchpriority="high">`;
}

/**
 * Server HTML of a profile: the `view` of GET /api/getProfile/{id}?render=1 and the first HTML of
 * /profile/{id} (search engines, link previews). The same component the SPA renders, so the two
 * cannot drift; React escapes every text and attribute.
 */
export function renderProfileHtml(profile: Profile, lang: Language = 'en'): string {
  return renderToString(createElement(ProfileView, { profile, t: translator(lang), lang }));
}

/** The first screens of public pages, in the markup the SPA renders for them (src/shared/views). */
export interface PageRenderer {
  home(countries: CountryCountView[]): string;
  listing(
    filter: { category: Category; country: string; place?: string },
    nav: Navigation,
    page: DirectoryPage,
    /** Narrowed by filters (docs/decisions/0324): an empty page says the filters found nobody. */
    filtered?: boolean,
  ): string;
  profile(profile: Profile): string;
  search(q: string, page: DirectoryPage | null, filtered?: boolean): string;
}

export function pageRenderer(lang: Language): PageRenderer {
  const t = translator(lang);
  const common = translator(lang, 'common');
  const route = (name: string) => matchRoute(name === 'home' ? '/' : name)?.route;
  // The shell around the screen: the top bar as it first shows (the menu closed) and <main>, with the
  // classes of the SPA's shell so that every box is where the SPA will draw it.
  const frame = (nav: RouteMeta['nav'], screen: ReactNode) =>
    renderToString(
      createElement(
        'div',
        { className: 'ssr-frame' },
        createElement(
          'header',
          { className: 'topbar' },
          createElement(
            'div',
            { className: `topbar__inner topbar__inner--${nav}` },
            createElement(
              'a',
              { href: '/', className: 'brand' },
              createElement('span', { className: 'brand__mark', 'aria-hidden': 'true' }, '◆'),
              common('siteName'),
            ),
            createElement(
              'button',
              { type: 'button', className: 'menu-toggle', 'aria-expanded': 'false', disabled: true },
              createElement('span', { className: 'menu-toggle__icon', 'aria-hidden': 'true' }),
              common('nav.open'),
            ),
          ),
        ),
        createElement('main', { id: 'main', className: `main main--${nav}` }, screen),
      ),
    );
  return {
    home: (countries) => frame(route('home')?.nav ?? 'full', createElement(HomeView, { countries, t, lang })),
    listing: (filter, nav, page, filtered) =>
      frame(
        route(`/${filter.category}/${filter.country}`)?.nav ?? 'contained',
        createElement(
          'div',
          { className: 'directory container' },
          createElement(DirectoryHeadView, { ...filter, nav, t, lang }),
          createElement(CardGridView, { page, t, lang, emptyText: filtered ? t('filters.empty') : t('list.empty') }),
        ),
      ),
    search: (q, page, filtered) =>
      frame(
        route('/search')?.nav ?? 'contained',
        createElement(
          'div',
          { className: 'container section search-page' },
          createElement(SearchHeadView, { q, valid: page !== null, total: page?.total, more: page?.total_more, t }),
          page
            ? createElement(CardGridView, {
                page,
                t,
                lang,
                emptyText: filtered ? t('filters.empty') : t('search.empty', { q }),
              })
            : createElement('p', { className: 'lead' }, t('search.tooShort', { count: SEARCH_MIN_CHARS })),
        ),
      ),
    profile: (profile) =>
      frame(
        route(`/profile/${profile.user_id}`)?.nav ?? 'full',
        createElement(
          'div',
          { className: 'container profile-page', 'aria-busy': 'false' },
          createElement(
            'button',
            { type: 'button', className: 'button button--ghost back-button', disabled: true },
            createElement('span', { 'aria-hidden': 'true' }, '←'),
            ` ${t('profile.back')}`,
          ),
          createElement(ProfileView, {
            profile,
            t,
            lang,
            // The bookmark button's place, so that the SPA's button takes it without moving anything.
            actions: createElement(
              'button',
              { type: 'button', className: 'button bookmark-button', disabled: true },
              createElement('span', { 'aria-hidden': 'true', className: 'bookmark-button__icon' }, '☆'),
              createElement('span', null, t('bookmark.add')),
            ),
          }),
        ),
      ),
  };
}

export type { SsrQuery };
