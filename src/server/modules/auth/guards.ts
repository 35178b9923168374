// Route guards that run in onRequest, before the body is validated: a visitor gets 401 and a
// stranger 403 whatever they send, and nothing about the body's rules leaks to them. Use them as
// `{ onRequest: signedIn }`, `{ onRequest: may('update', 'profile') }`, `{ onRequest: adminOnly }`.
// They decide nothing themselves: the rules are in policies/ (issue 22 item 1).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MAX_ID } from '#shared/api/fields.ts';
import { msg } from '#shared/api/messages.ts';
import { AppError, notFound } from '../../lib/errors';
import { refuseCrossSite } from '../../plugins/same-origin';
import { requireUser } from '../../plugins/session';
import * as policy from '../../policies';

export async function signedIn(request: FastifyRequest): Promise<void> {
  requireUser(request);
}

export async function adminOnly(request: FastifyRequest): Promise<void> {
  policy.authorize(request.user, 'administer', policy.site);
}

const subjects = {
  account: policy.account,
  profile: (id: number) => policy.profile(id),
  media: policy.media,
  money: policy.money,
} as const;

/**
 * The path parameter names an account (`/edit/.../{id}`); the policy decides whether the session may do
 * `action` to that account's `type` (its settings, profile, media or money). A malformed id is 404.
 */
export function may<T extends keyof typeof subjects>(action: policy.ActionOn<T>, type: T, param = 'id') {
  return async function policyGuard(request: FastifyRequest): Promise<void> {
    requireUser(request);
    const raw = (request.params as Record<string, string | undefined>)[param] ?? '';
    const id = Number(raw);
    if (!/^\d{1,10}$/.test(raw) || id < 1 || id > MAX_ID) throw notFound();
    policy.authorize(request.user, action, subjects[type](id) as policy.Subject & { type: T });
  };
}

/**
 * Login CSRF and cross-site posts: calls that work without a session (login, register, reset...)
 * accept only JSON bodies, which an HTML form on another site cannot send without a CORS preflight we
 * never grant, and refuse requests the browser marks as cross-site. Signed-in calls have the CSRF token
 * on top (plugins/session.ts).
 */
export async function sameOriginJson(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  refuseCrossSite(request);
  const hasBody =
    Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
  if (hasBody && !(request.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) {
    throw unsupportedType();
  }
}

const unsupportedType = () => new AppError(415, 'unsupported_media_type', msg('auth.unsupportedType'));
