import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import * as seo from './seo.service';
import { msg } from '#shared/api/messages.ts';

export const seoRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const xml = 'application/xml; charset=utf-8';
  app.get('/robots.txt', async (req, reply) =>
    reply.type('text/plain; charset=utf-8').send(seo.robots(seo.baseUrl(ctx, req.host))),
  );
  app.get('/sitemap.xml', async (req, reply) =>
    reply.type(xml).send(await seo.sitemapIndex(ctx, seo.baseUrl(ctx, req.host))),
  );
  app.get('/sitemap-directory.xml', async (req, reply) =>
    reply.type(xml).send(await seo.sitemapDirectory(ctx, seo.baseUrl(ctx, req.host))),
  );
  app.get(
    '/sitemap-profiles-:n.xml',
    { schema: { params: z.object({ n: z.coerce.number().int().min(1).max(100_000) }) } },
    async (req, reply) => {
      const body = await seo.sitemapProfiles(ctx, seo.baseUrl(ctx, req.host), req.params.n);
      if (!body) return reply.code(404).send({ message: msg('errors.notFound') });
      return reply.type(xml).send(body);
    },
  );
};
