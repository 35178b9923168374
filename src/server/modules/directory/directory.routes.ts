import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DirectoryFilter, PageQuery } from '#shared/schemas/directory';
import type { AppContext } from '../../context';
import * as service from './directory.service';

export const directoryRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/directory/countries', async () => service.listCountries(ctx));

  app.post('/directory/getNavigation', { schema: { body: DirectoryFilter } }, async (req) =>
    service.getNavigation(ctx, req.body),
  );

  app.post('/directory/getDirectory', { schema: { body: DirectoryFilter, querystring: PageQuery } }, async (req) =>
    service.getDirectory(ctx, req.body, req.query.page),
  );

  app.get(
    '/getProfile/:id',
    { schema: { params: z.object({ id: z.coerce.number().int().positive().max(2 ** 31 - 1) }) } },
    async (req) => ({ profile: await service.getProfile(ctx, { id: req.params.id }, req.user) }),
  );

  app.get('/getProfileByName/:name', { schema: { params: z.object({ name: z.string().min(1).max(100) }) } }, async (req) => ({
    profile: await service.getProfile(ctx, { name: req.params.name }, req.user),
  }));
};
