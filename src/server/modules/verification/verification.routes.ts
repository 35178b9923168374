// The verification screen /edit/verify/{id}: GET /edit/getVerification/{id} (its state) and
// POST /edit/verify/{id} (multipart, the photo ID in `file`), for the owner or an admin;
// GET /admin/photo-id/{requestId} shows an ID to admins only (it never has a public URL).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParam } from '#shared/api/fields.ts';
import { MEDIA_LIMITS } from '#shared/schemas/media.ts';
import { Bytes, errorAnswers, fileAnswer } from '#shared/schemas/route-answers.ts';
import { PhotoIdParams, VerificationStateResponse } from '#shared/schemas/verification.ts';
import type { AppContext } from '../../context';
import { requireUser } from '../../plugins/session';
import { adminOnly, may } from '../auth/guards';
import { readUpload } from '../media/upload';
import * as service from './verification.service';

export const verificationRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const owner = may('update', 'account');

  app.get(
    '/edit/getVerification/:id',
    { onRequest: owner, schema: { params: IdParam, response: { 200: VerificationStateResponse } } },
    async (req) => ({ data: await service.getVerification(ctx, req.params.id) }),
  );

  app.post(
    '/edit/verify/:id',
    {
      onRequest: owner,
      config: {
        rateLimit: { max: 10, timeWindow: '1 hour', keyGenerator: (req) => `verify:${req.user?.id ?? req.ip}` },
      },
      schema: { params: IdParam, response: { 200: VerificationStateResponse } },
    },
    async (req) => {
      const upload = await readUpload(req, MEDIA_LIMITS.photoIdBytes);
      return { data: await service.requestVerification(ctx, { userId: req.params.id, ...upload }) };
    },
  );

  // The ID as JPEG (or a JSON error); never cached, never framed.
  app.get(
    '/admin/photo-id/:requestId',
    {
      onRequest: adminOnly,
      schema: {
        params: PhotoIdParams,
        response: {
          200: fileAnswer('image/jpeg', 'The photo ID, its metadata stripped.', Bytes),
          ...errorAnswers(401, 403, 404),
        },
      },
    },
    async (req, reply) => {
      const file = await service.readPhotoId(ctx, req.params.requestId, requireUser(req).id);
      return reply
        .type(file.contentType)
        .header('cache-control', 'private, no-store')
        .header('content-disposition', 'inline')
        .send(file.body);
    },
  );
};
