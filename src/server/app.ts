// buildApp() assembles the Fastify app from a context; main.ts listens, tests inject.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from './context';
import { callLanguage, translateBody } from './lib/message-i18n';
import { RedisRateLimiter } from './lib/rate-limiter';
import { plainNotFound, registerErrorHandler } from './plugins/error-handler';
import { sessionPlugin } from './plugins/session';
import { accountRoutes } from './modules/account/account.routes';
import { appRoutes } from './modules/app/app.routes';
import { devOutboxRoutes } from './modules/app/dev-outbox.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { autoTopupRoutes } from './modules/auto-topup/auto-topup.routes';
import { commentsRoutes } from './modules/comments/comments.routes';
import { directoryRoutes } from './modules/directory/directory.routes';
import { healthRoutes } from './modules/health/health.routes';
import { mediaRoutes } from './modules/media/media.routes';
import { moneyRoutes, webhookRoutes } from './modules/money/money.routes';
import { noticesRoutes } from './modules/notices/notices.routes';
import { sandboxInUse } from './modules/money/providers';
import { sandboxAcquirerRoutes } from './modules/sandbox-acquirer/sandbox-acquirer.routes';
import { seoRoutes } from './modules/seo/seo.routes';
import { verificationRoutes } from './modules/verification/verification.routes';
import { injectPage, renderProfileHtml } from './modules/seo/seo.html';
import { baseUrl, pageMeta } from './modules/seo/seo.service';
import { legacyRedirect } from '#shared/routes.ts';
import { urlLanguage } from './lib/i18n';

export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLIENT_DIR = path.join(ROOT_DIR, 'dist/client');

export interface BuildOptions {
  logger?: boolean;
  /** Serve the built SPA from dist/client (off in API tests). */
  serveClient?: boolean;
  /** Where the built SPA is (tests point at a fixture). */
  clientDir?: string;
}

export async function buildApp(ctx: AppContext, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ? { level: ctx.env.LOG_LEVEL } : false,
    // One line per request drowns the console of a local run; turn it on with LOG_LEVEL=debug.
    logController: new LogController({
      disableRequestLogging: ctx.env.LOG_LEVEL !== 'debug' && ctx.env.LOG_LEVEL !== 'trace',
    }),
    trustProxy: parseTrustProxy(ctx.env.TRUST_PROXY),
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

  await app.register(cookie);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'", 'https://api.tumblr.com'], // Tumblr share count, JSONP: docs/decisions/0200
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: ctx.env.NODE_ENV === 'production',
  });
  // Limits are set per route (login, PIN...); in-process by default, Redis when REDIS_URL is set.
  await app.register(rateLimit, {
    global: false,
    // Several instances share one count through the same Redis as the accounts limiter.
    ...(ctx.limiter instanceof RedisRateLimiter ? { redis: ctx.limiter.redis, nameSpace: 'route-limit:' } : {}),
  });
  await app.register(multipart, { limits: { fileSize: 200 * 1024 * 1024, files: 10 } });
  await app.register(sessionPlugin, { ctx });
  // Error and notice texts in the language of the page that called (docs/decisions/0009).
  app.addHook('preSerialization', async (request, _reply, payload) =>
    request.url.startsWith('/api/') ? translateBody(payload, callLanguage(request)) : payload,
  );

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { ctx });
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
    },
    { prefix: '/api' },
  );
  // The sandbox payment provider's own pages and tokenizer, as a third party would serve them.
  if (sandboxInUse(ctx)) await app.register(sandboxAcquirerRoutes, { ctx, root: () => app });
  if (ctx.env.NODE_ENV === 'development') await app.register(devOutboxRoutes, { ctx });

  const mediaRoot = path.join(ctx.env.dataDir, 'media', 'public');
  fs.mkdirSync(mediaRoot, { recursive: true });
  await app.register(fastifyStatic, {
    root: mediaRoot,
    prefix: '/media/',
    decorateReply: false,
    maxAge: '30d',
    immutable: true,
  });

  await app.register(seoRoutes, { ctx });

  if (opts.serveClient) await registerClient(app, ctx, opts.clientDir ?? CLIENT_DIR);
  else app.setNotFoundHandler(plainNotFound);
  return app;
}

async function registerClient(app: FastifyInstance, ctx: AppContext, clientDir: string) {
  const indexFile = path.join(clientDir, 'index.html');
  if (!fs.existsSync(indexFile)) throw new Error(`The SPA is not built (${indexFile} missing): run npm run build.`);
  const indexHtml = fs.readFileSync(indexFile, 'utf8');
  await app.register(fastifyStatic, {
    root: clientDir,
    prefix: '/',
    wildcard: false,
    index: false,
    decorateReply: false,
    setHeaders(res, file) {
      // Section chunks carry a content hash and the ?v= build id: cache them for good.
      if (file.includes(`${path.sep}dyn${path.sep}`))
        res.header('cache-control', 'public, max-age=31536000, immutable');
    },
  });
  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url;
    const moved = legacyRedirect(url);
    if (moved) return reply.redirect(moved, 301);
    if (url.startsWith('/api/') || url.startsWith('/media/') || url.startsWith('/dyn/') || request.method !== 'GET') {
      return reply.code(404).send({ message: 'Not found.' });
    }
    // Every other path is a client route; the SPA shows page-not-found for unknown ones. Public
    // pages arrive with their head and first HTML already rendered, for search engines and previews.
    const base = baseUrl(ctx, request.host);
    const meta = await pageMeta(ctx, url, base, (profile) =>
      renderProfileHtml(profile, urlLanguage(url, request.hostname)),
    );
    const html = meta ? injectPage(indexHtml, meta, base, url) : indexHtml;
    return reply
      .code(meta?.status ?? 200)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(html);
  });
}

function parseTrustProxy(value: string | undefined): boolean {
  if (!value) return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value) as unknown as boolean;
  // An address list; Fastify accepts the same forms as proxy-addr.
  return value as unknown as boolean;
}
