// GET /api/notices, POST /api/notices/read: the signed-in account's in-app notices.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MarkReadBody, MarkReadResponse, NoticesResponse } from '#shared/schemas/notices.ts';
import type { AppContext } from '../../context';
import { callLanguage } from '../../lib/message-i18n';
import { requireUser } from '../../plugins/session';
import { signedIn } from '../auth/guards';
import * as service from './notices.service';

export const noticesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/notices', { onRequest: signedIn, schema: { response: { 200: NoticesResponse } } }, async (req) =>
    service.listNotices(ctx, requireUser(req).id, callLanguage(req)),
  );
  app.post(
    '/notices/read',
    { onRequest: signedIn, schema: { body: MarkReadBody, response: { 200: MarkReadResponse } } },
    async (req) => service.markRead(ctx, requireUser(req).id, req.body),
  );
};
