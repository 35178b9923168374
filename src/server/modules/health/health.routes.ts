import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MessageBody } from '#shared/api/errors.ts';
import { HealthResponse } from '#shared/schemas/app.ts';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { msg } from '#shared/api/messages.ts';

export const healthRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/health', { schema: { response: { 200: HealthResponse, 503: MessageBody } } }, async () => {
    try {
      await ctx.db.execute(sql`select 1`);
    } catch {
      throw new AppError(503, 'unavailable', msg('errors.databaseUnavailable'));
    }
    return { status: 'ok' as const, build: ctx.buildId, database: ctx.dbKind };
  });
};
