import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import type { Language } from '#shared/constants.ts';
import type { Profile } from '#shared/schemas/directory.ts';
import { ProfileView } from '#shared/views/profile-view.tsx';
import { translator } from '../../lib/i18n';
import { renderHead, type PageMeta } from './seo.service';

/** Puts the page's head tags and first HTML into the SPA's index.html. */
export function injectPage(indexHtml: string, meta: PageMeta, base: string, path: string): string {
  const head = renderHead(meta, base, path.split('#')[0]);
  let html = /<title>[^<]*<\/title>/.test(indexHtml)
    ? indexHtml.replace(/<title>[^<]*<\/title>/, head)
    : indexHtml.replace('</head>', `    ${head}\n  </head>`);
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
