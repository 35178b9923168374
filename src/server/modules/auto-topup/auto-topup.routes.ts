// /api/auto-topup/* (spec section 7 "Auto-topup"; /edit/auto-topup/{id}) for the profile's owner or an
// admin, and GET /api/admin/getAutoTopup?page for admins.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParam } from '#shared/api/fields.ts';
import {
  AdminAutoTopupPage,
  AutoTopupDataResponse,
  AutoTopupForecastResponse,
  DeleteTimerBody,
  SetTimerBody,
} from '#shared/schemas/auto-topup.ts';
import { PageQuery } from '#shared/schemas/directory.ts';
import type { AppContext } from '../../context';
import { adminOnly, may, sameOriginJson } from '../auth/guards';
import { refuseCardNumbers } from '../money/card-guard';
import { adminList } from './admin-review.service';
import * as service from './auto-topup.service';
import { forecast } from './forecast.service';

export const autoTopupRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const owner = may('update', 'money');
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') await sameOriginJson(request, reply);
  });
  app.addHook('preValidation', refuseCardNumbers);

  app.get(
    '/auto-topup/getData/:id',
    { onRequest: owner, schema: { params: IdParam, response: { 200: AutoTopupDataResponse } } },
    async (req) => ({ data: await service.getData(ctx, req.params.id) }),
  );
  app.post(
    '/auto-topup/setTimer/:id',
    { onRequest: owner, schema: { params: IdParam, body: SetTimerBody, response: { 200: AutoTopupDataResponse } } },
    async (req) => ({ data: await service.setTimer(ctx, req.params.id, req.body) }),
  );
  app.post(
    '/auto-topup/deleteTimer/:id',
    { onRequest: owner, schema: { params: IdParam, body: DeleteTimerBody, response: { 200: AutoTopupDataResponse } } },
    async (req) => ({ data: await service.deleteTimer(ctx, req.params.id, req.body.timer_id) }),
  );
  app.get(
    '/auto-topup/getCart/:id',
    { onRequest: owner, schema: { params: IdParam, response: { 200: AutoTopupForecastResponse } } },
    async (req) => ({ data: await forecast(ctx, req.params.id) }),
  );
  app.get(
    '/admin/getAutoTopup',
    { onRequest: adminOnly, schema: { querystring: PageQuery, response: { 200: AdminAutoTopupPage } } },
    async (req) => adminList(ctx, req.query.page),
  );
};
