import type { Profile } from '#shared/schemas/directory';
import { escapeHtml, renderHead, type PageMeta } from './seo.service';

/** Puts the page's head tags and first HTML into the SPA's index.html. */
export function injectPage(indexHtml: string, meta: PageMeta, base: string, path: string): string {
  const head = renderHead(meta, base, path.split('#')[0]);
  let html = /<title>[^<]*<\/title>/.test(indexHtml)
    ? indexHtml.replace(/<title>[^<]*<\/title>/, head)
    : indexHtml.replace('</head>', `    ${head}\n  </head>`);
  html = html.replace(/<div id="root"><\/div>/, `<div id="root"><div id="ssr">${meta.body}</div></div>`);
  return html;
}

/** Server HTML of a profile (search engines, link previews, the `view` of getProfile). */
export function renderProfileHtml(p: Profile): string {
  const e = escapeHtml;
  const where = p.city ? `${p.city.name}${p.place && p.place !== p.city.name ? ` - ${p.place}` : ''}, ${p.city.country}` : '';
  return [
    `<article class="profile-view">`,
    `<h1>${e(p.screen_name)}</h1>`,
    p.heading ? `<p class="heading">${e(p.heading)}</p>` : '',
    where ? `<p class="where">${e(where)}</p>` : '',
    p.avatar ? `<img src="${e(p.avatar)}" alt="${e(p.screen_name)}" width="240">` : '',
    p.about ? `<p class="about">${e(p.about)}</p>` : '',
    p.services.length ? `<ul class="services">${p.services.map((s) => `<li>${e(s.replace(/_/g, ' '))}</li>`).join('')}</ul>` : '',
    `</article>`,
  ].join('');
}
