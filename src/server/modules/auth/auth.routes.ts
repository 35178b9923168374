// POST /api/auth/* (spec section 7), POST /api/recover, and the linked-accounts list.
// Guards run in onRequest, before the body is validated (see guards.ts). The routes read the caller
// (address, user agent, cookies, language) and set or clear the cookies; the services know no HTTP.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUTH_ERRORS,
  ConnectBody,
  ForgotPasswordBody,
  LinksResponse,
  LoginBody,
  LogoutResponse,
  NotificationResponse,
  RecoverBody,
  RecoverResponse,
  RegisterBody,
  ResetPasswordBody,
  SessionResponse,
  SetNewPasswordBody,
  SwitchBody,
  VerifyBody,
} from '#shared/schemas/auth.ts';
import type { AppContext } from '../../context';
import { callLanguage } from '../../lib/message-i18n';
import { requireUser } from '../../plugins/session';
import { sent } from '../../lib/declared-answers';
import { clientOf } from './client-info';
import { clearSessionCookies, setKnownDevices, setSessionCookies } from './cookies';
import { sameOriginJson, signedIn } from './guards';
import * as identity from './identity.service';
import * as links from './linked-accounts.service';
import * as recovery from './recovery.service';
import * as verification from './contact-verification.service';

const answers = <T>(ok: T) => ({ 200: ok, ...AUTH_ERRORS });

export const authRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') await sameOriginJson(request, reply);
  });

  app.post(
    '/auth/register',
    { schema: { body: RegisterBody, response: answers(SessionResponse) } },
    async (req, reply) => {
      const { answer, session, knownDevices } = await identity.register(ctx, {
        body: req.body,
        client: clientOf(req),
        language: callLanguage(req),
        log: req.log,
      });
      setSessionCookies(reply, ctx, session);
      setKnownDevices(reply, ctx, knownDevices);
      return answer;
    },
  );

  app.post('/auth/login', { schema: { body: LoginBody, response: answers(SessionResponse) } }, async (req, reply) => {
    const { answer, session, knownDevices } = await identity.login(ctx, {
      login: req.body.login,
      password: req.body.password,
      client: clientOf(req),
      previousSessionId: req.user?.sessionId,
    });
    setSessionCookies(reply, ctx, session);
    setKnownDevices(reply, ctx, knownDevices);
    return answer;
  });

  app.post('/auth/logout', { schema: { response: answers(LogoutResponse) } }, async (req, reply) => {
    const answer = await identity.logout(ctx, req.user?.sessionId);
    clearSessionCookies(reply, ctx);
    return answer;
  });

  app.post('/auth/verify', { schema: { body: VerifyBody, response: answers(NotificationResponse) } }, async (req) =>
    sent(
      req.body.type === 'email'
        ? await verification.verifyEmailLink(ctx, req.log, req.body.target, req.user)
        : await verification.verifyPin(ctx, {
            actor: requireUser(req),
            address: clientOf(req).address,
            target: req.body.target,
            pin: req.body.pin,
            log: req.log,
          }),
    ),
  );

  app.post(
    '/auth/resendVerification',
    { onRequest: signedIn, schema: { response: answers(NotificationResponse) } },
    async (req) => sent(await verification.resendVerification(ctx, requireUser(req), req.log)),
  );

  app.post(
    '/auth/forgotPassword',
    { schema: { body: ForgotPasswordBody, response: answers(NotificationResponse) } },
    async (req) =>
      sent(await recovery.forgotPassword(ctx, { email: req.body.email, address: clientOf(req).address, log: req.log })),
  );

  app.post('/recover', { schema: { body: RecoverBody, response: answers(RecoverResponse) } }, async (req) =>
    recovery.checkRecoverLink(ctx, req.body.id, req.body.hash),
  );

  app.post(
    '/auth/resetPassword',
    { schema: { body: ResetPasswordBody, response: answers(NotificationResponse) } },
    async (req) => sent(await recovery.resetPassword(ctx, { ...req.body, log: req.log })),
  );

  app.post(
    '/auth/setNewPassword',
    { onRequest: signedIn, schema: { body: SetNewPasswordBody, response: answers(NotificationResponse) } },
    async (req) => {
      const actor = requireUser(req);
      return sent(
        await recovery.changePassword(ctx, {
          actor,
          targetId: actor.id,
          currentPassword: req.body.current_password,
          password: req.body.password,
          log: req.log,
        }),
      );
    },
  );

  app.post(
    '/auth/connect',
    { onRequest: signedIn, schema: { body: ConnectBody, response: answers(LinksResponse) } },
    async (req) => links.connect(ctx, { actor: requireUser(req), client: clientOf(req), ...req.body }),
  );

  app.post(
    '/auth/switch',
    { onRequest: signedIn, schema: { body: SwitchBody, response: answers(SessionResponse) } },
    async (req, reply) => {
      const { answer, session } = await links.switchAccount(ctx, {
        actor: requireUser(req),
        client: clientOf(req),
        targetId: req.body.user_id,
      });
      setSessionCookies(reply, ctx, session);
      return answer;
    },
  );

  app.post(
    '/auth/unlink',
    { onRequest: signedIn, schema: { body: SwitchBody, response: answers(LinksResponse) } },
    async (req) => links.unlink(ctx, requireUser(req), req.body.user_id),
  );

  app.get('/auth/links', { onRequest: signedIn, schema: { response: answers(LinksResponse) } }, async (req) =>
    links.listLinks(ctx, requireUser(req).id),
  );
};
