// The pages of the site (issue 22 item 4: out of app.ts): the built SPA's files, and every other path as
// index.html with the page's head and first HTML (seo.service, seo.html), its CSP nonce, and the
// directory's answer cache with ETag for visitors (docs/decisions/0700, 0712). /api and /media are not
// pages: a path under them that no route took is a JSON 404.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { msg } from '#shared/api/messages.ts';
import { legacyRedirect } from '#shared/routes.ts';
import type { AppContext } from '../../context';
import { etagOf, sendAnswer, type Answer } from '../../lib/answer-cache';
import { assetRoutes } from '../../plugins/security-headers';
import { answerCache, visitorAnswer, type Produced } from '../directory/directory.cache';
import { injectPage, pageRenderer } from './seo.html';
import { pageLanguage } from './seo.language';
import { languageUrls, pageMeta } from './seo.service';

/** The SPA's build files and every page path (index.html with the page's head, first HTML and nonce). */
export async function servePages(app: FastifyInstance, ctx: AppContext, clientDir: string) {
  const indexFile = path.join(clientDir, 'index.html');
  if (!fs.existsSync(indexFile)) throw new Error(`The SPA is not built (${indexFile} missing): run npm run build.`);
  const indexHtml = fs.readFileSync(indexFile, 'utf8');
  // The build's files (scripts, styles) answer with the small header set of a subresource (0712);
  // index.html, the one document among them, keeps the page set.
  await app.register(
    assetRoutes(fastifyStatic, {
      root: clientDir,
      prefix: '/',
      wildcard: false,
      index: false,
      preCompressed: true,
      decorateReply: false,
      setHeaders(res, file) {
        // Section chunks carry a content hash and the ?v= build id: cache them for good.
        if (file.includes(`${path.sep}dyn${path.sep}`))
          res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    }),
  );
  const notPage = (url: string) => url.startsWith('/api/') || url.startsWith('/media/') || url.startsWith('/dyn/');
  app.setNotFoundHandler(async (request, reply) => {
    const moved = legacyRedirect(request.url);
    if (moved) return reply.redirect(moved, 301);
    return reply.code(404).send({ message: msg('errors.notFound') });
  });
  // Pages are a route (not the not-found handler) so that route hooks, compression first, apply to them.
  app.get('/*', async (request, reply) => {
    const url = request.url;
    const moved = legacyRedirect(url);
    if (moved) return reply.redirect(moved, 301);
    if (notPage(url)) return reply.code(404).send({ message: msg('errors.notFound') });
    // Every other path is a client route; the SPA shows page-not-found for unknown ones. Public
    // pages arrive with their head and first HTML already rendered, for search engines and previews.
    // A signed-in user's page speaks her saved language unless the URL names one (0605): made for her,
    // neither from nor into the visitors' cache.
    const { lang, personal } = await pageLanguage(ctx, request);
    const make = async () => {
      const urls = languageUrls(ctx, request.host, url);
      const meta = await pageMeta(ctx, url, urls, lang, pageRenderer(lang));
      const status = meta?.status ?? 200;
      return stablePage(injectPage(indexHtml, meta, urls, lang, url), status, url);
    };
    if (personal) return sendPersonalPage(await make(), reply);
    // From the directory's cache of answers, with ETag (docs/decisions/0700); a page that is not found
    // is made each time.
    const page = await visitorAnswer(ctx, `page|${request.host}|${url}|${lang}`, make);
    return sendPage(page, request, reply);
  });

  /** A signed-in user's page: sent as made, kept by nobody (no ETag, `private, no-store`). */
  function sendPersonalPage(page: Produced, reply: FastifyReply) {
    usePageNonce(reply, String(page.meta?.nonce));
    return reply
      .code(Number(page.meta?.status ?? 200))
      .header('cache-control', 'private, no-store')
      .type('text/html; charset=utf-8')
      .send(page.raw);
  }

  function usePageNonce(reply: FastifyReply, nonce: string) {
    // The page's own nonce is the answer's: the CSP is written with it as the page is sent (0712).
    reply.cspNonce = { script: nonce, style: nonce };
  }

  /**
   * The page with its CSP nonce: derived from the page itself (HMAC of its ETag), so that the same page
   * is the same bytes and a browser's copy revalidates with 304. Markup slipped into a page changes its
   * bytes and therefore its nonce, which nobody can compute without the server's secret.
   */
  function stablePage(html: string, status: number, url: string): Produced {
    const etag = etagOf(html);
    const nonce = crypto.createHmac('sha256', ctx.secret).update(`csp-nonce|${etag}`).digest('hex').slice(0, 32);
    const body = html.replace('<head>', `<head><meta name="csp-nonce" content="${nonce}">`);
    // A profile page shows how long ago its owner was seen and her view count: kept a minute.
    const ttlMs = status !== 200 ? 0 : /^\/(profile\/|@)/.test(url) ? 60_000 : Infinity;
    return { raw: Buffer.from(body), ttlMs, meta: { status, nonce } };
  }

  function sendPage(page: Answer, request: FastifyRequest, reply: FastifyReply) {
    usePageNonce(reply, String(page.meta?.nonce));
    void reply.code(Number(page.meta?.status ?? 200));
    return sendAnswer(answerCache(ctx), request, reply, page, 'text/html; charset=utf-8');
  }
}
