// Edit calls of spec section 7 (docs/decisions/0310): POST /edit/setAttribute/{id},
// POST /edit/getAttribute/{id}, GET /getUpdateData/{id}, POST /update (the signed-in account's
// profile, or `user_id` for an admin), GET /edit/getOverview/{id}/{days}; plus the city picker
// GET /edit/findCities and the listings screen's GET /edit/getListings/{id}, POST /edit/setTourDates/{id};
// "available now" from the overview, POST /edit/setAvailableNow/{id} (issue 27, docs/decisions/0320).
// {id} is the account: its owner or an admin (may('update', 'profile') in onRequest, before any body is read).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParam } from '#shared/api/fields.ts';
import { errorAnswers } from '#shared/schemas/route-answers.ts';
import {
  AttributeResponse,
  AvailableNowBody,
  AvailableNowResponse,
  CitiesResponse,
  FindCitiesQuery,
  GetAttributeBody,
  ListingsResponse,
  OverviewParams,
  OverviewResponse,
  SetAttributeBody,
  TourDatesBody,
  UpdateBody,
  UpdateDataResponse,
} from '#shared/schemas/profile-edit.ts';
import type { AppContext } from '../../context';
import { callLanguage } from '../../lib/message-i18n';
import { requireUser } from '../../plugins/session';
import { may, signedIn } from '../auth/guards';
import * as service from './profile-edit.service';

export const profileEditRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const owner = may('update', 'profile');

  app.get(
    '/getUpdateData/:id',
    { onRequest: owner, schema: { params: IdParam, response: { 200: UpdateDataResponse } } },
    async (req) => ({ data: await service.getUpdateData(ctx, req.params.id) }),
  );

  app.post(
    '/update',
    // 404: the profile the body names does not exist (an admin may name any).
    { onRequest: signedIn, schema: { body: UpdateBody, response: { 200: UpdateDataResponse, ...errorAnswers(404) } } },
    async (req) => ({ data: await service.update(ctx, requireUser(req), req.body) }),
  );

  app.post(
    '/edit/setAttribute/:id',
    { onRequest: owner, schema: { params: IdParam, body: SetAttributeBody, response: { 200: AttributeResponse } } },
    async (req) => ({ data: await service.setAttribute(ctx, requireUser(req), req.params.id, req.body) }),
  );

  app.post(
    '/edit/getAttribute/:id',
    { onRequest: owner, schema: { params: IdParam, body: GetAttributeBody, response: { 200: AttributeResponse } } },
    async (req) => ({ data: await service.getAttribute(ctx, req.params.id, req.body.attribute) }),
  );

  app.get(
    '/edit/getOverview/:id/:days',
    { onRequest: owner, schema: { params: OverviewParams, response: { 200: OverviewResponse } } },
    async (req) => ({ data: await service.getOverview(ctx, req.params.id, req.params.days) }),
  );

  app.post(
    '/edit/setAvailableNow/:id',
    {
      onRequest: owner,
      schema: {
        params: IdParam,
        body: AvailableNowBody,
        response: { 200: AvailableNowResponse, ...errorAnswers(404) },
      },
    },
    async (req) => ({ data: await service.setAvailableNow(ctx, requireUser(req), req.params.id, req.body) }),
  );

  app.get(
    '/edit/findCities',
    { onRequest: signedIn, schema: { querystring: FindCitiesQuery, response: { 200: CitiesResponse } } },
    async (req) => ({ data: await service.findCities(ctx, req.query, callLanguage(req)) }),
  );

  app.get(
    '/edit/getListings/:id',
    { onRequest: owner, schema: { params: IdParam, response: { 200: ListingsResponse } } },
    async (req) => ({ data: await service.getListings(ctx, req.params.id) }),
  );

  app.post(
    '/edit/setTourDates/:id',
    { onRequest: owner, schema: { params: IdParam, body: TourDatesBody, response: { 200: ListingsResponse } } },
    async (req) => ({ data: await service.setTourDates(ctx, requireUser(req), req.params.id, req.body) }),
  );
};
