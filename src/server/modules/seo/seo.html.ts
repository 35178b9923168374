import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import type { Language } from '#shared/constants.ts';
import type { Profile } from '#shared/schemas/directory.ts';
import { ProfileView } from '#shared/views/profile-view.tsx';
import { matchRoute } from '#shared/routes.ts';
import { textLanguage } from '#shared/rules/language.ts';
import { translator } from '../../lib/i18n';
import { alternates, escapeHtml, renderHead, type LanguageUrls, type PageMeta } from './seo.service';

/**
 * The SPA's index.html in the page's language: `<html lang>`, the noscript text and either the public
 * page's head tags and first HTML (meta) or the route's own title, as the shell will title it.
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
    .replace(/<html lang="[^"]*"/, `<html lang="${textLanguage(lang)}"`)
    .replace(/<noscript>[^<]*<\/noscript>/, () => `<noscript>${escapeHtml(t('pages:seo.noscript'))}</noscript>`);
  let head: string;
  if (meta) head = renderHead(meta, urls, path.split('#')[0]);
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
  // A function replacement: a "$&" or "$1" in a profile's text must stay text.
  html = html.replace(/<div id="root"><\/div>/, () => `<div id="root"><div id="ssr">${meta.body}</div></div>`);
  return html;
}

/**
 * Server HTML of a profile: the `view` of GET /api/getProfile/{id}?render=1 and the first HTML of
 * /profile/{id} (search engines, link previews). The same component the SPA renders, so the two
 * cannot drift; React escapes every text and attribute.
 */
export function renderProfileHtml(profile: Profile, lang: Language = 'en'): string {
  return renderToString(createElement(ProfileView, { profile, t: translator(lang), lang }));
}
