// /api/account/{id}/...: the calls of the account screen /edit/account/{id}. Every route is guarded
// by may('update', 'account') in onRequest (policies/: the owner or an admin), before the body is read.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParam } from '#shared/api/fields.ts';
import {
  AccountResponse,
  ChangeEmailBody,
  ChangeLanguageBody,
  ChangeMobileBody,
  ChangePasswordBody,
  ChangeUsernameBody,
  DeleteAccountBody,
  LanguageResponse,
} from '#shared/schemas/account.ts';
import { AUTH_ERRORS, NotificationResponse } from '#shared/schemas/auth.ts';
import type { AppContext } from '../../context';
import { requireUser } from '../../plugins/session';
import { sent } from '../../lib/declared-answers';
import { clearSessionCookies } from '../auth/cookies';
import { may, sameOriginJson } from '../auth/guards';
import * as service from './account.service';

const answers = <T>(ok: T) => ({ 200: ok, ...AUTH_ERRORS });
const notified = answers(NotificationResponse);

export const accountRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const owner = may('update', 'account');
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') await sameOriginJson(request, reply);
  });

  app.get(
    '/account/:id',
    { onRequest: owner, schema: { params: IdParam, response: answers(AccountResponse) } },
    async (req) => service.getAccount(ctx, req.params.id),
  );

  app.post(
    '/account/:id/email',
    { onRequest: owner, schema: { params: IdParam, body: ChangeEmailBody, response: notified } },
    async (req) =>
      sent(
        await service.changeEmail(ctx, {
          actor: requireUser(req),
          id: req.params.id,
          email: req.body.email,
          currentPassword: req.body.current_password,
          log: req.log,
        }),
      ),
  );

  app.post(
    '/account/:id/mobile',
    { onRequest: owner, schema: { params: IdParam, body: ChangeMobileBody, response: notified } },
    async (req) => sent(await service.changeMobile(ctx, req.params.id, req.body.mobile)),
  );

  app.post(
    '/account/:id/password',
    { onRequest: owner, schema: { params: IdParam, body: ChangePasswordBody, response: notified } },
    async (req) =>
      sent(
        await service.changePassword(ctx, {
          actor: requireUser(req),
          id: req.params.id,
          currentPassword: req.body.current_password,
          password: req.body.password,
          log: req.log,
        }),
      ),
  );

  app.post(
    '/account/:id/username',
    { onRequest: owner, schema: { params: IdParam, body: ChangeUsernameBody, response: notified } },
    async (req) => sent(await service.changeUsername(ctx, requireUser(req), req.params.id, req.body.username)),
  );

  app.post(
    '/account/:id/language',
    { onRequest: owner, schema: { params: IdParam, body: ChangeLanguageBody, response: answers(LanguageResponse) } },
    async (req) => service.changeLanguage(ctx, req.params.id, req.body.language),
  );

  app.post(
    '/account/:id/delete',
    { onRequest: owner, schema: { params: IdParam, body: DeleteAccountBody, response: notified } },
    async (req, reply) => {
      const { answer, signedOut } = await service.deleteAccount(ctx, {
        actor: requireUser(req),
        id: req.params.id,
        currentPassword: req.body.current_password,
        log: req.log,
      });
      if (signedOut) clearSessionCookies(reply, ctx);
      return sent(answer);
    },
  );
};
