// GET /api/comments/{profileId}?page, POST /api/comments/{profileId} {body} (signed in),
// POST /api/comments/delete/{commentId} (the profile's owner or an admin).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PageQuery } from '#shared/schemas/directory.ts';
import {
  CommentBody,
  CommentCreated,
  CommentDeleted,
  CommentIdParams,
  CommentParams,
  CommentsPage,
} from '#shared/schemas/comments.ts';
import type { AppContext } from '../../context';
import { requireUser } from '../../plugins/session';
import { signedIn } from '../auth/guards';
import * as service from './comments.service';

export const commentsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/comments/:profileId',
    { schema: { params: CommentParams, querystring: PageQuery, response: { 200: CommentsPage } } },
    async (req) => service.listComments(ctx, req.params.profileId, req.user, req.query.page),
  );

  app.post(
    '/comments/:profileId',
    {
      onRequest: signedIn,
      schema: { params: CommentParams, body: CommentBody, response: { 200: CommentCreated } },
      // Enough for a conversation, too few for a spam run.
      config: {
        rateLimit: {
          max: 10,
          timeWindow: '10 minutes',
          keyGenerator: (req) => (req.user ? `user:${req.user.id}` : req.ip),
        },
      },
    },
    async (req) => service.postComment(ctx, req.params.profileId, requireUser(req), req.body.body),
  );

  app.post(
    '/comments/delete/:commentId',
    { onRequest: signedIn, schema: { params: CommentIdParams, response: { 200: CommentDeleted } } },
    async (req) => service.deleteComment(ctx, req.params.commentId, requireUser(req)),
  );
};
