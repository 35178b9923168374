// Every state-changing /api call must come from our own pages (issue 8, item 14): a browser marks a
// request another site made (Sec-Fetch-Site) and names that site (Origin), and either one is enough
// to refuse it with 403, before any session, body or handler is looked at. Signed-in calls carry the
// CSRF token on top (plugins/session.ts); calls without a session (login, register) rely on this and
// on JSON bodies (auth/guards.ts). Server-to-server calls (payment webhooks) send neither header.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors';
import { msg } from '#shared/api/messages.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** host[:port] with the scheme's default port dropped, or null when it does not parse. */
function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

export const crossSiteRefused = () => new AppError(403, 'cross_site', msg('errors.crossSite'));

/** Throws 403 when the browser says another site made this request. */
export function refuseCrossSite(request: FastifyRequest): void {
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') throw crossSiteRefused();
  const origin = request.headers.origin;
  if (origin === undefined) return;
  if (origin === 'null' || hostOf(origin) !== hostOf(`${request.protocol}://${request.host}`)) throw crossSiteRefused();
}

export function sameOriginPlugin(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (!SAFE_METHODS.has(request.method) && request.url.startsWith('/api/')) refuseCrossSite(request);
  });
}
