// /api/admin/* (spec section 7 "Admin"): every route is admin-only, decided in onRequest before the body is
// read (a visitor gets 401, an advertiser 403). Bodies are the shared schemas of #shared/schemas/admin.ts.
// Money (products, adjustments, bank transfers) and auto-topup admin calls live in their own modules.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParam } from '#shared/api/fields.ts';
import {
  AdminSearchBody,
  AdminSearchPage,
  AdminUserResponse,
  AuditLogBody,
  AuditLogPage,
  DismissDuplicateBody,
  DismissDuplicateResponse,
  DuplicatesPage,
  DuplicatesQuery,
  FlagBody,
  OverviewResponse,
  ReportsBody,
  ReportsPage,
  ResolveReportBody,
  ResolveReportResponse,
  ScanDuplicatesResponse,
  VerificationDataBody,
  VerificationDataPage,
  VerifyBody,
  VerifyResponse,
  VerifyVideoBody,
  VerifyVideoResponse,
  VideosPage,
  WarnResponse,
} from '#shared/schemas/admin.ts';
import { errorAnswers } from '#shared/schemas/route-answers.ts';
import { PageQuery } from '#shared/schemas/directory.ts';
import type { AppContext } from '../../context';
import { requireCsrf, requireUser } from '../../plugins/session';
import * as policy from '../../policies';
import { adminOnly, guardEvery, sameOriginJson } from '../auth/guards';
import { auditLog } from './audit-log.service';
import { overview } from './overview.service';
import { flag, getUser, search, warn } from './people.service';
import { verificationQueue, verify, verifyVideo, videos } from './queues.service';
import { reports, resolveReport } from './reports.service';
import { dismissDuplicate, listDuplicates, scanDuplicates } from './duplicates';

export const adminRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  guardEvery(app, adminOnly);
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') await sameOriginJson(request, reply);
  });
  const actor = (req: Parameters<typeof requireUser>[0]) =>
    policy.authorize(requireUser(req), 'administer', policy.site);
  // 404 of the calls whose body names an account, a verification request, a report or a match that is not there.
  const missing = errorAnswers(404);

  app.get('/admin/getOverview', { schema: { response: { 200: OverviewResponse } } }, async () => ({
    data: await overview(ctx),
  }));

  // ---------------------------------------------------------------- people

  app.post(
    '/admin/search',
    { schema: { querystring: PageQuery, body: AdminSearchBody, response: { 200: AdminSearchPage } } },
    async (req) => search(ctx, req.body.q, req.query.page),
  );

  app.get(
    '/admin/getUserData/:id',
    { schema: { params: IdParam, response: { 200: AdminUserResponse } } },
    async (req) => ({ data: await getUser(ctx, req.params.id) }),
  );

  app.post(
    '/admin/flag',
    { schema: { body: FlagBody, response: { 200: AdminUserResponse, ...missing } } },
    async (req) => ({
      data: await flag(ctx, actor(req), req.body),
    }),
  );

  // A GET in the spec that deletes: the CSRF header is required all the same.
  app.get(
    '/admin/warn/:id',
    { onRequest: async (req) => requireCsrf(req), schema: { params: IdParam, response: { 200: WarnResponse } } },
    async (req) => ({ data: await warn(ctx, actor(req), req.params.id) }),
  );

  // ---------------------------------------------------------------- verification and videos

  app.post(
    '/admin/getVerificationData',
    { schema: { querystring: PageQuery, body: VerificationDataBody, response: { 200: VerificationDataPage } } },
    async (req) => verificationQueue(ctx, req.body.status, req.query.page),
  );

  app.post(
    '/admin/verify',
    { schema: { body: VerifyBody, response: { 200: VerifyResponse, ...missing } } },
    async (req) => ({
      data: await verify(ctx, actor(req), req.body),
    }),
  );

  app.get('/admin/getVideos', { schema: { querystring: PageQuery, response: { 200: VideosPage } } }, async (req) =>
    videos(ctx, req.query.page),
  );

  app.post(
    '/admin/verifyVideo/:id',
    { schema: { params: IdParam, body: VerifyVideoBody, response: { 200: VerifyVideoResponse } } },
    async (req) => ({ data: await verifyVideo(ctx, actor(req), req.params.id, req.body) }),
  );

  // ---------------------------------------------------------------- reports, duplicates, audit log

  app.post(
    '/admin/getReports',
    { schema: { querystring: PageQuery, body: ReportsBody, response: { 200: ReportsPage } } },
    async (req) => reports(ctx, req.body.status, req.query.page),
  );

  app.post(
    '/admin/resolveReport',
    { schema: { body: ResolveReportBody, response: { 200: ResolveReportResponse, ...missing } } },
    async (req) => ({ data: await resolveReport(ctx, actor(req), req.body) }),
  );

  app.get(
    '/admin/getDuplicates',
    { schema: { querystring: DuplicatesQuery, response: { 200: DuplicatesPage } } },
    async (req) => listDuplicates(ctx, req.query.status, req.query.page),
  );

  app.post('/admin/scanDuplicates', { schema: { response: { 200: ScanDuplicatesResponse } } }, async () => ({
    data: { found: await scanDuplicates(ctx) },
  }));

  app.post(
    '/admin/dismissDuplicate',
    { schema: { body: DismissDuplicateBody, response: { 200: DismissDuplicateResponse, ...missing } } },
    async (req) => ({ data: await dismissDuplicate(ctx, actor(req), req.body.match_id) }),
  );

  app.post(
    '/admin/getAuditLog',
    { schema: { querystring: PageQuery, body: AuditLogBody, response: { 200: AuditLogPage } } },
    async (req) => auditLog(ctx, req.body, req.query.page),
  );
};
