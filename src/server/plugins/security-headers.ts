// Helmet's security headers, computed once at start (docs/decisions/0721). @fastify/helmet built the whole
// helmet middleware again for every request, and with CSP nonces parsed and validated every directive
// again: a visible share of a cached JSON answer's cost. Here the headers are fixed strings; an HTML page
// (everything outside /api) gets the page CSP with two fresh nonces spliced into a template, and an /api
// answer (JSON, never rendered as a document) a static `default-src 'none'; frame-ancestors 'none'`.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

declare module 'fastify' {
  interface FastifyReply {
    /** This answer's CSP nonces (pages only; an /api answer has none). */
    cspNonce: { script: string; style: string };
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

  app.decorateReply('cspNonce', null as unknown as { script: string; style: string });
  app.addHook('onRequest', (request, reply, done) => {
    const res = reply.raw;
    for (let i = 0; i < fixed.length; i++) res.setHeader(fixed[i][0], fixed[i][1]);
    if (request.url.startsWith('/api/')) res.setHeader('content-security-policy', API_CSP);
    else {
      const script = randomBytes(16).toString('hex');
      const style = randomBytes(16).toString('hex');
      reply.cspNonce = { script, style };
      res.setHeader('content-security-policy', pageCsp.replace(SCRIPT, script).replace(STYLE, style));
    }
    done();
  });
}
