// Upload and edit calls of the media screens (spec section 7): POST /upload/photo/{type} (the signed-in
// account, or ?id= for an admin), POST /upload/video/{id}, GET /edit/getGallery/{id},
// POST /edit/deleteMedia/{id}, POST /edit/updateGalleryPos/{id}, GET /edit/deleteVideo/{id}, plus
// POST /edit/deleteAllMedia/{id}, GET /edit/videoProgress/{id} and GET /edit/videoFile/{id}.
// {id} is the account: its owner or an admin (may('update', 'media') in onRequest, before any body is read).
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParam } from '#shared/api/fields.ts';
import {
  DeletedResponse,
  DeleteMediaBody,
  GalleryOrderBody,
  GalleryOrderResponse,
  MEDIA_LIMITS,
  MediaItemResponse,
  MediaStateResponse,
  PhotoTypeParams,
  UploadPhotoQuery,
  VideoResponse,
} from '#shared/schemas/media.ts';
import { Bytes, errorAnswers, fileAnswer, NotModified } from '#shared/schemas/route-answers.ts';
import type { AppContext } from '../../context';
import * as policy from '../../policies';
import { requireCsrf, requireUser } from '../../plugins/session';
import { may, signedIn } from '../auth/guards';
import { deleteAllMedia, getMediaState } from './media.service';
import { deleteMedia, updateGalleryOrder, uploadPhoto } from './photos.service';
import { deleteVideo, uploadVideo, videoFile, videoState } from './video.service';
import { sendObject } from './media-serving';
import { readUpload, readUploadToFile } from './upload';

/** Pictures and videos cost CPU: enough for a busy editing session, not for a flood. */
const uploadLimit = {
  rateLimit: {
    max: 60,
    timeWindow: '10 minutes',
    keyGenerator: (req: FastifyRequest) => (req.user ? `upload:${req.user.id}` : req.ip),
  },
};

export const mediaRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const owner = may('update', 'media');

  app.post(
    '/upload/photo/:type',
    {
      onRequest: signedIn,
      config: uploadLimit,
      schema: { params: PhotoTypeParams, querystring: UploadPhotoQuery, response: { 200: MediaItemResponse } },
    },
    async (req) => {
      const actor = requireUser(req);
      const userId = req.query.id ?? actor.id;
      policy.authorize(actor, 'update', policy.media(userId));
      const upload = await readUpload(req, MEDIA_LIMITS.photoBytes);
      return { data: await uploadPhoto(ctx, { actor, userId, type: req.params.type, ...upload }) };
    },
  );

  app.post(
    '/upload/video/:id',
    { onRequest: owner, config: uploadLimit, schema: { params: IdParam, response: { 200: VideoResponse } } },
    async (req) => {
      const file = await readUploadToFile(req, MEDIA_LIMITS.videoBytes);
      try {
        return {
          data: await uploadVideo(ctx, {
            userId: req.params.id,
            file: file.path,
            bytes: file.bytes,
            declaredType: file.declaredType,
          }),
        };
      } finally {
        await file.remove();
      }
    },
  );

  app.get(
    '/edit/getGallery/:id',
    { onRequest: owner, schema: { params: IdParam, response: { 200: MediaStateResponse } } },
    async (req) => ({ data: await getMediaState(ctx, req.params.id) }),
  );

  app.post(
    '/edit/deleteMedia/:id',
    { onRequest: owner, schema: { params: IdParam, body: DeleteMediaBody, response: { 200: DeletedResponse } } },
    async (req) => ({ data: await deleteMedia(ctx, req.params.id, req.body.id) }),
  );

  app.post(
    '/edit/updateGalleryPos/:id',
    { onRequest: owner, schema: { params: IdParam, body: GalleryOrderBody, response: { 200: GalleryOrderResponse } } },
    async (req) => ({ data: await updateGalleryOrder(ctx, req.params.id, req.body.gallery) }),
  );

  // The spec makes this a GET; it still changes state, so it needs the CSRF header like a POST
  // (docs/decisions/0300): a link or an <img> on another site cannot delete anything.
  app.get(
    '/edit/deleteVideo/:id',
    {
      onRequest: [owner, async (req) => requireCsrf(req)],
      schema: { params: IdParam, response: { 200: DeletedResponse } },
    },
    async (req) => ({ data: await deleteVideo(ctx, req.params.id) }),
  );

  app.post(
    '/edit/deleteAllMedia/:id',
    { onRequest: owner, schema: { params: IdParam, body: z.strictObject({}), response: { 200: DeletedResponse } } },
    async (req) => ({ data: await deleteAllMedia(ctx, req.params.id) }),
  );

  app.get(
    '/edit/videoProgress/:id',
    { onRequest: owner, schema: { params: IdParam, response: { 200: VideoResponse } } },
    async (req) => ({ data: await videoState(ctx, req.params.id) }),
  );

  // The owner and admins watch a video the public cannot see yet: the MP4 itself (streamed, by range for
  // a seeking player), or a JSON error.
  app.get(
    '/edit/videoFile/:id',
    {
      onRequest: owner,
      schema: {
        params: IdParam,
        response: {
          200: fileAnswer('video/mp4', 'The converted video (pending or approved).', Bytes),
          206: fileAnswer('video/mp4', 'The byte range a Range header asked for (a player seeking).', Bytes),
          304: NotModified,
          416: z.undefined().describe('The Range header asked for bytes past the end.'),
          ...errorAnswers(401, 403, 404),
        },
      },
    },
    async (req, reply) => {
      const file = await videoFile(ctx, req.params.id);
      return sendObject(req, reply, ctx.media, file.visibility, file.key, 'private, no-store');
    },
  );
};
