// Route guards that run in onRequest, before the body is validated: a visitor gets 401 and a
// stranger 403 whatever they send, and nothing about the body's rules leaks to them. Use them as
// `{ onRequest: signedIn }`, `{ onRequest: may('update', 'profile') }`, `{ onRequest: adminOnly }`.
// They decide nothing themselves: the rules are in policies/ (issue 22 item 1). Each says which
// statuses it answers (`answering`), and /api/docs.json declares them on every route it guards.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_ID } from '#shared/api/fields.ts';
import { msg } from '#shared/api/messages.ts';
import { answering, answersOf, declareAnswers } from '../../lib/declared-answers';
import { AppError, notFound } from '../../lib/errors';
import { refuseCrossSite } from '../../plugins/same-origin';
import { requireUser } from '../../plugins/session';
import * as policy from '../../policies';

export async function signedIn(request: FastifyRequest): Promise<void> {
  requireUser(request);
}
answering(signedIn, 401);

export async function adminOnly(request: FastifyRequest): Promise<void> {
  policy.authorize(request.user, 'administer', policy.site);
}
answering(adminOnly, 401, 403);

/**
 * `guard` in onRequest of every route a plugin registers after this call (admin.routes.ts: adminOnly),
 * and the statuses it answers in each of those routes' response maps, as a route's own guard gets them
 * from plugins/api-docs.ts: a plugin's hooks are not in its routes' options.
 */
export function guardEvery(app: FastifyInstance, guard: (request: FastifyRequest) => Promise<void>): void {
  app.addHook('onRequest', guard);
  app.addHook('onRoute', (route) => declareAnswers(route, answersOf(guard)));
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
  return answering(
    async function policyGuard(request: FastifyRequest): Promise<void> {
      requireUser(request);
      const raw = (request.params as Record<string, string | undefined>)[param] ?? '';
      const id = Number(raw);
      if (!/^\d{1,10}$/.test(raw) || id < 1 || id > MAX_ID) throw notFound();
      policy.authorize(request.user, action, subjects[type](id) as policy.Subject & { type: T });
    },
    401,
    403,
    404,
  );
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
answering(sameOriginJson, 403, 415);

const unsupportedType = () => new AppError(415, 'unsupported_media_type', msg('auth.unsupportedType'));
