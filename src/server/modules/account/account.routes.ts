// /api/account/{id}/...: the calls of the account screen /edit/account/{id}. Every route is guarded
// by ownerOf('id') in onRequest: the session owns {id} or is an admin, before the body is read.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParam } from '#shared/api/fields.ts';
import {
  ChangeEmailBody,
  ChangeLanguageBody,
  ChangeMobileBody,
  ChangePasswordBody,
  ChangeUsernameBody,
  DeleteAccountBody,
} from '#shared/schemas/account.ts';
import type { AppContext } from '../../context';
import { requireUser } from '../../plugins/session';
import { ownerOf, sameOriginJson } from '../auth/guards';
import * as service from './account.service';

export const accountRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const owner = ownerOf('id');
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') await sameOriginJson(request, reply);
  });

  app.get('/account/:id', { onRequest: owner, schema: { params: IdParam } }, async (req) =>
    service.getAccount(ctx, req.params.id),
  );

  app.post(
    '/account/:id/email',
    { onRequest: owner, schema: { params: IdParam, body: ChangeEmailBody } },
    async (req) =>
      service.changeEmail(ctx, req, requireUser(req), req.params.id, req.body.email, req.body.current_password),
  );

  app.post(
    '/account/:id/mobile',
    { onRequest: owner, schema: { params: IdParam, body: ChangeMobileBody } },
    async (req) => service.changeMobile(ctx, req.params.id, req.body.mobile),
  );

  app.post(
    '/account/:id/password',
    { onRequest: owner, schema: { params: IdParam, body: ChangePasswordBody } },
    async (req) =>
      service.changePassword(ctx, req, requireUser(req), req.params.id, req.body.current_password, req.body.password),
  );

  app.post(
    '/account/:id/username',
    { onRequest: owner, schema: { params: IdParam, body: ChangeUsernameBody } },
    async (req) => service.changeUsername(ctx, requireUser(req), req.params.id, req.body.username),
  );

  app.post(
    '/account/:id/language',
    { onRequest: owner, schema: { params: IdParam, body: ChangeLanguageBody } },
    async (req) => service.changeLanguage(ctx, req.params.id, req.body.language),
  );

  app.post(
    '/account/:id/delete',
    { onRequest: owner, schema: { params: IdParam, body: DeleteAccountBody } },
    async (req, reply) =>
      service.deleteAccount(ctx, req, reply, requireUser(req), req.params.id, req.body.current_password),
  );
};
