import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { TumblrCount, TumblrCountQuery } from '#shared/schemas/share.ts';
import type { AppContext } from '../../context';
import { profileAddress, tumblrCount } from './share.service';

export const shareRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/share/tumblr',
    {
      schema: { querystring: TumblrCountQuery, response: { 200: TumblrCount } },
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
    },
    async (req, reply) => {
      const count = await tumblrCount(ctx, profileAddress(ctx, req.query.url, req.host));
      // Every visitor gets the same answer for a while: browsers and caches may keep it.
      void reply.header('cache-control', 'public, max-age=600');
      return { count };
    },
  );
};
