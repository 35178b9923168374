// buildApp() assembles the Fastify app from a context; main.ts listens, tests inject.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import crypto from 'node:crypto';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from './context';
import { msg } from '#shared/api/messages.ts';
import { callLanguage, translateBody } from './lib/message-i18n';
import { etagOf, sendAnswer, type Answer } from './lib/answer-cache';
import { RedisRateLimiter } from './lib/rate-limiter';
import { answerCache, visitorAnswer, type Produced } from './modules/directory/directory.cache';
import { clientErrorHandler, frameworkErrors, plainNotFound, registerErrorHandler } from './plugins/error-handler';
import { apiDocsRoute, registerApiDocs } from './plugins/api-docs';
import { cardGuard } from './plugins/card-guard';
import { urlForLog } from './lib/card-numbers';
import { applyHttpLimits, HTTP_LIMITS, serverOptions, type HttpLimits } from './plugins/http-limits';
import { recordRoutes } from './plugins/route-table';
import { sameOriginPlugin } from './plugins/same-origin';
import { assetRoutes, isAssetRequest, securityHeaders } from './plugins/security-headers';
import { sessionPlugin } from './plugins/session';
import { accountRoutes } from './modules/account/account.routes';
import { adminRoutes } from './modules/admin/admin.routes';
import { appRoutes } from './modules/app/app.routes';
import { devOutboxRoutes } from './modules/app/dev-outbox.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { autoTopupRoutes } from './modules/auto-topup/auto-topup.routes';
import { commentsRoutes } from './modules/comments/comments.routes';
import { directoryRoutes } from './modules/directory/directory.routes';
import { healthRoutes } from './modules/health/health.routes';
import { languageRoutes } from './modules/i18n/language.routes';
import { helpRoutes } from './modules/help/help.routes';
import { publicMediaRoutes } from './modules/media/media-serving';
import { mediaRoutes } from './modules/media/media.routes';
import { moneyRoutes, webhookRoutes } from './modules/money/money.routes';
import { noticesRoutes } from './modules/notices/notices.routes';
import { profileEditRoutes } from './modules/profiles/profile-edit.routes';
import { sandboxInUse } from './modules/money/providers';
import { sandboxAcquirerRoutes } from './modules/sandbox-acquirer/sandbox-acquirer.routes';
import { seoRoutes } from './modules/seo/seo.routes';
import { shareRoutes } from './modules/share/share.routes';
import { verificationRoutes } from './modules/verification/verification.routes';
import { injectPage, pageRenderer } from './modules/seo/seo.html';
import { languageUrls, pageMeta } from './modules/seo/seo.service';
import { legacyRedirect } from '#shared/routes.ts';
import { pageLanguage } from './modules/seo/seo.language';

export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLIENT_DIR = path.join(ROOT_DIR, 'dist/client');

const PERMISSIONS_POLICY =
  'accelerometer=(), camera=(), display-capture=(), geolocation=(self), gyroscope=(), magnetometer=(), ' +
  'microphone=(), midi=(), payment=(), usb=(), browsing-topics=()';

export interface BuildOptions {
  logger?: boolean;
  /** Log into this stream instead of stdout (tests that read what is logged). */
  logStream?: { write(line: string): void };
  /** Serve the built SPA from dist/client (off in API tests). */
  serveClient?: boolean;
  /** Where the built SPA is (tests point at a fixture). */
  clientDir?: string;
  /** Time limits and connection caps of the HTTP server (tests shorten them). */
  httpLimits?: Partial<HttpLimits>;
}

/** What a log line says of a request: never a card number someone put in the URL (lib/card-numbers.ts). */
function logRequest(req: FastifyRequest) {
  return { method: req.method, url: urlForLog(req.url), host: req.host, remoteAddress: req.ip };
}

export async function buildApp(ctx: AppContext, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const limits = { ...HTTP_LIMITS, ...opts.httpLimits };
  const app = Fastify({
    ...serverOptions(limits),
    logger:
      opts.logger || opts.logStream
        ? {
            level: ctx.env.LOG_LEVEL,
            serializers: { req: logRequest },
            ...(opts.logStream ? { stream: opts.logStream } : {}),
          }
        : false,
    // One line per request drowns the console of a local run; turn it on with LOG_LEVEL=debug.
    logController: new LogController({
      disableRequestLogging: ctx.env.LOG_LEVEL !== 'debug' && ctx.env.LOG_LEVEL !== 'trace',
    }),
    trustProxy: parseTrustProxy(ctx.env.TRUST_PROXY),
    bodyLimit: 1024 * 1024,
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  recordRoutes(app);
  cardGuard(app);
  applyHttpLimits(app, limits, !!ctx.env.TRUST_PROXY);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

  // Every text answer compressed (brotli, else gzip); images and video are left as they are. Built
  // assets come precompressed (vite.config.ts precompress) and are sent as stored.
  await app.register(compress, {
    global: true,
    encodings: ['br', 'gzip'],
    threshold: 1024,
    // Quality 4 compresses a directory page to about what gzip -9 does, at a fraction of the CPU.
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(cookie);
  // No inline style or script and no foreign script host (issue 8, item 11; docs/decisions/0805): the
  // <style> elements a library writes at run time (the dialogs' scroll lock) carry the page's nonce,
  // which the page names in <meta name="csp-nonce">; the Tumblr count comes through our own API. The
  // headers are computed once; /api answers get a static CSP of their own (docs/decisions/0721).
  // Media from a CDN or a public bucket (S3_PUBLIC_URL) are loaded from its origin.
  const mediaOrigin = ctx.env.S3_BUCKET && ctx.env.S3_PUBLIC_URL ? [new URL(ctx.env.S3_PUBLIC_URL).origin] : [];
  securityHeaders(app, {
    helmet: {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          imgSrc: ["'self'", 'data:', 'blob:', ...mediaOrigin],
          mediaSrc: ["'self'", 'blob:', ...mediaOrigin],
          styleSrc: ["'self'"],
          scriptSrc: ["'self'"],
          connectSrc: ["'self'"],
          frameAncestors: ["'none'"],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
      hsts: ctx.env.NODE_ENV === 'production',
    },
  });
  // Limits are set per route (login, PIN...); in-process by default, Redis when REDIS_URL is set.
  await app.register(rateLimit, {
    global: false,
    // Several instances share one count through the same Redis as the accounts limiter.
    ...(ctx.limiter instanceof RedisRateLimiter ? { redis: ctx.limiter.redis, nameSpace: 'route-limit:' } : {}),
  });
  await app.register(multipart, { limits: { fileSize: 200 * 1024 * 1024, files: 10 } });
  app.addHook('onSend', async (request, reply) => {
    // A built script or a picture is not a document: it carries no policy for documents (0712).
    if (isAssetRequest(request)) return;
    // Features no page of the site uses are off; geolocation is for "nearby" on our own pages only.
    void reply.header('permissions-policy', PERMISSIONS_POLICY);
    // An answer for a signed-in account (email, mobile, balance...) or one that starts a session is
    // never kept by a browser or a shared cache.
    // A route that already said no-store (the private photo ID says "private, no-store") keeps its own.
    const own = String(reply.getHeader('cache-control') ?? '');
    if (request.url.startsWith('/api/') && (request.user || reply.hasHeader('set-cookie')) && !own.includes('no-store'))
      void reply.header('cache-control', 'no-store');
  });
  sameOriginPlugin(app);
  await app.register(sessionPlugin, { ctx });
  // Error and notice texts in the language of the page that called (docs/decisions/0009).
  // Every JSON body's message, title and field errors in the caller's language (API answers and the
  // {message} of a 404 elsewhere alike); HTML pages are strings and pass untouched.
  app.addHook('preSerialization', async (request, _reply, payload) => translateBody(payload, callLanguage(request)));

  await registerApiDocs(app, ctx.buildId);
  await app.register(
    async (api) => {
      await api.register(apiDocsRoute(() => app));
      await api.register(healthRoutes, { ctx });
      await api.register(languageRoutes, { ctx });
      await api.register(helpRoutes, { ctx });
      await api.register(appRoutes, { ctx });
      await api.register(authRoutes, { ctx });
      await api.register(accountRoutes, { ctx });
      await api.register(directoryRoutes, { ctx });
      await api.register(commentsRoutes, { ctx });
      await api.register(mediaRoutes, { ctx });
      await api.register(verificationRoutes, { ctx });
      await api.register(moneyRoutes, { ctx });
      await api.register(webhookRoutes, { ctx });
      await api.register(autoTopupRoutes, { ctx });
      await api.register(noticesRoutes, { ctx });
      await api.register(shareRoutes, { ctx });
      await api.register(profileEditRoutes, { ctx });
      await api.register(adminRoutes, { ctx });
    },
    { prefix: '/api' },
  );
  // The sandbox payment provider's own pages and tokenizer, as a third party would serve them.
  if (sandboxInUse(ctx)) await app.register(sandboxAcquirerRoutes, { ctx, root: () => app });
  if (ctx.env.NODE_ENV === 'development') await app.register(devOutboxRoutes, { ctx });

  // Pictures and videos are subresources: the small header set of assetRoutes (docs/decisions/0712).
  await app.register(assetRoutes(publicMediaRoutes, { ctx }));

  await app.register(seoRoutes, { ctx });

  if (opts.serveClient) await registerClient(app, ctx, opts.clientDir ?? CLIENT_DIR);
  else app.setNotFoundHandler(plainNotFound);
  return app;
}

async function registerClient(app: FastifyInstance, ctx: AppContext, clientDir: string) {
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

function parseTrustProxy(value: string | undefined): boolean {
  if (!value) return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value) as unknown as boolean;
  // An address list; Fastify accepts the same forms as proxy-addr.
  return value as unknown as boolean;
}
