import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MessageBody } from '#shared/api/errors.ts';
import { HealthResponse } from '#shared/schemas/app.ts';
import type { AppContext } from '../../context';

export const healthRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/health', { schema: { response: { 200: HealthResponse, 503: MessageBody } } }, async (_req, reply) => {
    try {
      await ctx.db.execute(sql`select 1`);
      return { status: 'ok' as const, build: ctx.buildId, database: ctx.dbKind };
    } catch {
      return reply.code(503).send({ message: 'Database unavailable.' });
    }
  });
};
