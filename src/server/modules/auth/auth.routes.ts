// POST /api/auth/* (spec section 7), POST /api/recover, and the linked-accounts list.
// Guards run in onRequest, before the body is validated (see guards.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ConnectBody,
  ForgotPasswordBody,
  LoginBody,
  RecoverBody,
  RegisterBody,
  ResetPasswordBody,
  SetNewPasswordBody,
  SwitchBody,
  VerifyBody,
} from '#shared/schemas/auth.ts';
import type { AppContext } from '../../context';
import { requireUser } from '../../plugins/session';
import * as service from './auth.service';
import { sameOriginJson, signedIn } from './guards';
import { type ClientInfo, KNOWN_DEVICE_COOKIE, KNOWN_DEVICE_PATH, KNOWN_DEVICE_TTL_MS } from './known-devices';
import { cookieBase } from './sessions';

/** The caller as the services see it: its address and its known-device cookie (0806). */
const clientOf = (req: FastifyRequest): ClientInfo => ({
  address: req.ip || 'unknown',
  knownDevices: req.cookies[KNOWN_DEVICE_COOKIE],
});

function setKnownDevices(reply: FastifyReply, ctx: AppContext, value: string) {
  void reply.setCookie(KNOWN_DEVICE_COOKIE, value, {
    ...cookieBase(ctx),
    path: KNOWN_DEVICE_PATH,
    httpOnly: true,
    maxAge: Math.floor(KNOWN_DEVICE_TTL_MS / 1000),
  });
}

export const authRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') await sameOriginJson(request, reply);
  });

  app.post('/auth/register', { schema: { body: RegisterBody } }, async (req, reply) => {
    const { answer, knownDevices } = await service.register(ctx, req, reply, clientOf(req), req.body);
    setKnownDevices(reply, ctx, knownDevices);
    return answer;
  });

  app.post('/auth/login', { schema: { body: LoginBody } }, async (req, reply) => {
    const { answer, knownDevices } = await service.login(ctx, req, reply, clientOf(req), req.body);
    setKnownDevices(reply, ctx, knownDevices);
    return answer;
  });

  app.post('/auth/logout', async (req, reply) => service.logout(ctx, req, reply));

  app.post('/auth/verify', { schema: { body: VerifyBody } }, async (req) =>
    req.body.type === 'email'
      ? service.verifyEmailLink(ctx, req.log, req.body.target, req.user)
      : service.verifyPin(ctx, req, req.body.target, req.body.pin),
  );

  app.post('/auth/resendVerification', { onRequest: signedIn }, async (req) => service.resendVerification(ctx, req));

  app.post('/auth/forgotPassword', { schema: { body: ForgotPasswordBody } }, async (req) =>
    service.forgotPassword(ctx, req, req.body.email),
  );

  app.post('/recover', { schema: { body: RecoverBody } }, async (req) =>
    service.checkRecoverLink(ctx, req.body.id, req.body.hash),
  );

  app.post('/auth/resetPassword', { schema: { body: ResetPasswordBody } }, async (req) =>
    service.resetPassword(ctx, req, req.body.id, req.body.hash, req.body.password),
  );

  app.post('/auth/setNewPassword', { onRequest: signedIn, schema: { body: SetNewPasswordBody } }, async (req) => {
    const user = requireUser(req);
    return service.changePassword(ctx, req, user, user.id, req.body.current_password, req.body.password);
  });

  app.post('/auth/connect', { onRequest: signedIn, schema: { body: ConnectBody } }, async (req) =>
    service.connect(ctx, req, clientOf(req), req.body),
  );

  app.post('/auth/switch', { onRequest: signedIn, schema: { body: SwitchBody } }, async (req, reply) =>
    service.switchAccount(ctx, req, reply, req.body.user_id),
  );

  app.post('/auth/unlink', { onRequest: signedIn, schema: { body: SwitchBody } }, async (req) =>
    service.unlink(ctx, req, req.body.user_id),
  );

  app.get('/auth/links', { onRequest: signedIn }, async (req) => service.listLinks(ctx, requireUser(req).id));
};
