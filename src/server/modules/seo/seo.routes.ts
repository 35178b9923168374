import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import * as seo from './seo.service';
import { notFound } from '../../lib/errors';
import { errorAnswers, fileAnswer } from '#shared/schemas/route-answers.ts';

// Not the API (left out of /api/docs.json), but declared all the same: each answer's type per status.
const robotsAnswer = {
  200: fileAnswer('text/plain', 'robots.txt: what crawlers may read, and the sitemap.', z.string()),
};
const sitemapAnswer = (what: string) => ({ 200: fileAnswer('application/xml', what, z.string()) });

export const seoRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const xml = 'application/xml; charset=utf-8';
  app.get('/robots.txt', { schema: { response: robotsAnswer } }, async (req, reply) =>
    reply.type('text/plain; charset=utf-8').send(seo.robots(seo.baseUrl(ctx, req.host))),
  );
  app.get('/sitemap.xml', { schema: { response: sitemapAnswer('The sitemap index.') } }, async (req, reply) =>
    reply.type(xml).send(await seo.sitemapIndex(ctx, seo.baseUrl(ctx, req.host))),
  );
  app.get(
    '/sitemap-directory.xml',
    { schema: { response: sitemapAnswer('The directory pages: countries and cities.') } },
    async (req, reply) => reply.type(xml).send(await seo.sitemapDirectory(ctx, req.host)),
  );
  app.get(
    '/sitemap-profiles-:n.xml',
    {
      schema: {
        params: z.object({ n: z.coerce.number().int().min(1).max(100_000) }),
        response: { ...sitemapAnswer('One part of the profiles sitemap.'), ...errorAnswers(404, 422) },
      },
    },
    async (req, reply) => {
      const body = await seo.sitemapProfiles(ctx, req.host, req.params.n);
      if (!body) throw notFound();
      return reply.type(xml).send(body);
    },
  );
};
