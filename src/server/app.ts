// buildApp() assembles the Fastify app from a context; main.ts listens, tests inject.
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import Fastify, { LogController, type FastifyInstance, type FastifyRequest } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from './context';
import { callLanguage, translateBody } from './lib/message-i18n';
import { RedisRateLimiter } from './lib/rate-limiter';
import { clientErrorHandler, frameworkErrors, plainNotFound, registerErrorHandler } from './plugins/error-handler';
import { apiDocsRoute, registerApiDocs } from './plugins/api-docs';
import { cardGuard } from './plugins/card-guard';
import { registerMetrics, requestIdGenerator } from './plugins/metrics';
import { maskCardNumbers, urlForLog } from './lib/card-numbers';
import { applyHttpLimits, HTTP_LIMITS, serverOptions, type HttpLimits } from './plugins/http-limits';
import { scaleRouteLimits } from './plugins/route-limits';
import { recordRoutes } from './plugins/route-table';
import { sameOriginPlugin } from './plugins/same-origin';
import { assetRoutes, siteHeaders } from './plugins/security-headers';
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
import { servePages } from './modules/seo/seo.pages';
import { seoRoutes } from './modules/seo/seo.routes';
import { shareRoutes } from './modules/share/share.routes';
import { verificationRoutes } from './modules/verification/verification.routes';

export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLIENT_DIR = path.join(ROOT_DIR, 'dist/client');

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

/** An email address in a logged URL (a query string, a path segment), plain or percent-encoded. */
const EMAIL_IN_URL = /[^/?&=#\s]+(?:@|%40)[^/?&=#\s]+/gi;

/**
 * What a log line says of a request (decision 1019): never a card number someone put in the URL or the
 * Host (lib/card-numbers.ts; the line of an incoming request is written before the card guard runs), no
 * email address, and no visitor's IP address; the request id (reqId, on every line) ties the lines together.
 */
function logRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: urlForLog(req.url).replace(EMAIL_IN_URL, '[email]'),
    host: maskCardNumbers(req.host),
  };
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
    // Each request's id (on its log lines and in X-Request-Id): the trusted proxy's, else a UUID (decision 1019).
    genReqId: requestIdGenerator(!!parseTrustProxy(ctx.env.TRUST_PROXY)),
    bodyLimit: 1024 * 1024,
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  recordRoutes(app);
  registerMetrics(app, ctx);
  cardGuard(app);
  applyHttpLimits(app, limits, !!parseTrustProxy(ctx.env.TRUST_PROXY));
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
  // Media from a CDN or a public bucket (S3_PUBLIC_URL) are loaded from its origin.
  const mediaOrigins = ctx.env.S3_BUCKET && ctx.env.S3_PUBLIC_URL ? [new URL(ctx.env.S3_PUBLIC_URL).origin] : [];
  siteHeaders(app, { production: ctx.env.NODE_ENV === 'production', mediaOrigins });
  // RATE_LIMIT_SCALE (load tests): each route's cap multiplied before the rate-limit plugin reads it.
  scaleRouteLimits(app, ctx.env.RATE_LIMIT_SCALE);
  // Limits are set per route (login, PIN...); in-process by default, Redis when REDIS_URL is set.
  await app.register(rateLimit, {
    global: false,
    // Several instances share one count through the same Redis as the accounts limiter.
    ...(ctx.limiter instanceof RedisRateLimiter ? { redis: ctx.limiter.redis, nameSpace: 'route-limit:' } : {}),
    // Redis unreachable: these caps on reports, uploads and the like let requests through uncounted for
    // the outage; the sign-in and PIN limits (ctx.limiter) refuse instead (issue 24, item 4).
    skipOnError: true,
  });
  await app.register(multipart, { limits: { fileSize: 200 * 1024 * 1024, files: 10 } });
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

  if (opts.serveClient) await servePages(app, ctx, opts.clientDir ?? CLIENT_DIR);
  else app.setNotFoundHandler(plainNotFound);
  return app;
}

function parseTrustProxy(value: string | undefined): boolean {
  const v = value?.trim();
  if (!v || v === 'false' || v === '0') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v) as unknown as boolean;
  // An address list (checked by env.ts); Fastify accepts the same forms as proxy-addr.
  return v as unknown as boolean;
}
