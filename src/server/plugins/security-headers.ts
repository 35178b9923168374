// Helmet's security headers, computed once at start (docs/decisions/0721). @fastify/helmet built the whole
// helmet middleware again for every request, and with CSP nonces parsed and validated every directive
// again: a visible share of a cached JSON answer's cost. Here the headers are fixed strings; an HTML page
// (everything outside /api) gets the page CSP with its nonces spliced into a template, and an /api
// answer (JSON, never rendered as a document) a static `default-src 'none'; frame-ancestors 'none'`.
// A built script, style or picture (a route registered through `assetRoutes`) gets only the headers a
// subresource uses (docs/decisions/0712): the CSP, frame options and the rest apply to documents.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyPluginAsync, FastifyPluginOptions, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

declare module 'fastify' {
  interface FastifyReply {
    /**
     * This answer's CSP nonces (pages only; an /api answer has none). Made when first read, so an answer
     * that names none (or takes its page's own) makes nothing random; its CSP is written as it is sent.
     */
    cspNonce: { script: string; style: string };
  }
  interface FastifyContextConfig {
    /** The route serves files that are never a document (scripts, styles, pictures): see `assetRoutes`. */
    asset?: boolean;
  }
}

interface CspOptions {
  directives: Record<string, Iterable<string> | null>;
  useDefaults?: boolean;
}

export interface SecurityHeadersOptions {
  /** Every helmet option except the CSP's nonces, which pages get here. */
  helmet: HelmetOptions & { contentSecurityPolicy: CspOptions };
}

/** The CSP of an /api answer: nothing may load from it, nobody may frame it. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * What a subresource (script, style, font, picture) uses of the security headers: no sniffing it into
 * another type, no embedding by another site. The CSP, X-Frame-Options, COOP, Origin-Agent-Cluster,
 * Referrer-Policy (a script's or style's own requests follow the page's when it has none),
 * Permissions-Policy and the rest apply to documents (and workers, which this app has none of).
 */
export const ASSET_HEADERS: [string, string][] = [
  ['x-content-type-options', 'nosniff'],
  ['cross-origin-resource-policy', 'same-origin'],
];

/** Files a browser may open as a document even under an asset route: they keep the full set. */
const DOCUMENT_FILE = /\.(html?|xhtml|svg|xml|pdf)(?:[?#]|$)/i;

/** Whether this request is answered with the small header set of a subresource. */
export function isAssetRequest(request: FastifyRequest): boolean {
  return request.routeOptions.config?.asset === true && !DOCUMENT_FILE.test(request.url);
}

/**
 * Registers a file-serving plugin (@fastify/static) so that its routes are marked as assets: their
 * answers carry `ASSET_HEADERS` instead of the page set. Its own context, so only its routes are marked.
 */
export function assetRoutes<O extends FastifyPluginOptions>(plugin: FastifyPluginAsync<O>, opts: O) {
  return async (scope: FastifyInstance) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, asset: true };
    });
    await scope.register(plugin, opts);
  };
}

const SCRIPT = 'script0nonce0placeholder';
const STYLE = 'style0nonce0placeholder';

/** The headers a helmet middleware sets, as [name, value] pairs. */
export function headersOf(middleware: ReturnType<typeof helmet>): [string, string][] {
  const headers = new Map<string, string>();
  const res = {
    setHeader(name: string, value: string) {
      headers.set(name.toLowerCase(), value);
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
  };
  middleware({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return [...headers];
}

export function securityHeaders(app: FastifyInstance, opts: SecurityHeadersOptions) {
  const { contentSecurityPolicy, ...rest } = opts.helmet;
  const csp: CspOptions = contentSecurityPolicy;
  const fixed = headersOf(helmet({ ...rest, contentSecurityPolicy: false } as HelmetOptions));
  const directives = { ...csp.directives };
  directives.scriptSrc = [...(directives.scriptSrc ?? []), `'nonce-${SCRIPT}'`];
  directives.styleSrc = [...(directives.styleSrc ?? []), `'nonce-${STYLE}'`];
  const pageCsp = headersOf(helmet({ ...rest, contentSecurityPolicy: { ...csp, directives } } as HelmetOptions)).find(
    ([name]) => name === 'content-security-policy',
  )?.[1];
  if (!pageCsp || !pageCsp.includes(SCRIPT) || !pageCsp.includes(STYLE))
    throw new Error('security headers: the page CSP has no place for its nonces');
  const plainCsp = headersOf(helmet({ ...rest, contentSecurityPolicy: csp } as HelmetOptions)).find(
    ([name]) => name === 'content-security-policy',
  )?.[1];
  if (!plainCsp) throw new Error('security headers: no page CSP');

  const nonces = new WeakMap<object, { script: string; style: string }>();
  app.decorateReply('cspNonce', {
    getter(this: object) {
      let nonce = nonces.get(this);
      if (!nonce) {
        nonce = { script: randomBytes(16).toString('hex'), style: randomBytes(16).toString('hex') };
        nonces.set(this, nonce);
      }
      return nonce;
    },
    setter(this: object, value: { script: string; style: string }) {
      nonces.set(this, value);
    },
  });
  app.addHook('onRequest', (request, reply, done) => {
    const res = reply.raw;
    if (isAssetRequest(request)) {
      for (let i = 0; i < ASSET_HEADERS.length; i++) res.setHeader(ASSET_HEADERS[i][0], ASSET_HEADERS[i][1]);
      return done();
    }
    for (let i = 0; i < fixed.length; i++) res.setHeader(fixed[i][0], fixed[i][1]);
    if (request.url.startsWith('/api/')) res.setHeader('content-security-policy', API_CSP);
    done();
  });
  // A page's CSP names the nonces the answer ended with (the page's own, or new ones a route asked for),
  // written once as it is sent; an answer that used none gets the same policy without nonce sources.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith('/api/') || isAssetRequest(request)) return done(null, payload);
    const nonce = nonces.get(reply);
    reply.raw.setHeader(
      'content-security-policy',
      nonce ? pageCsp.replace(SCRIPT, nonce.script).replace(STYLE, nonce.style) : plainCsp,
    );
    done(null, payload);
  });
}

const PERMISSIONS_POLICY =
  'accelerometer=(), camera=(), display-capture=(), geolocation=(self), gyroscope=(), magnetometer=(), ' +
  'microphone=(), midi=(), payment=(), usb=(), browsing-topics=()';

/**
 * The site's own policy, set once for the app (moved from app.ts, issue 22 item 4): the CSP of pages and
 * /api, the features no page uses, and no-store on answers for a signed-in account.
 */
export function siteHeaders(app: FastifyInstance, opts: { production: boolean; mediaOrigins: string[] }) {
  // No inline style or script and no foreign script host (issue 8, item 11; docs/decisions/0805): the
  // <style> elements a library writes at run time (the dialogs' scroll lock) carry the page's nonce,
  // which the page names in <meta name="csp-nonce">; the Tumblr count comes through our own API. The
  // headers are computed once; /api answers get a static CSP of their own (docs/decisions/0721). Media
  // from a CDN or a public bucket come from `mediaOrigins`.
  securityHeaders(app, {
    helmet: {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          imgSrc: ["'self'", 'data:', 'blob:', ...opts.mediaOrigins],
          mediaSrc: ["'self'", 'blob:', ...opts.mediaOrigins],
          styleSrc: ["'self'"],
          scriptSrc: ["'self'"],
          connectSrc: ["'self'"],
          frameAncestors: ["'none'"],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
      hsts: opts.production,
    },
  });
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
}
