import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MessageBody } from '#shared/api/errors.ts';
import { HealthResponse, LiveResponse, ReadyResponse } from '#shared/schemas/app.ts';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { RedisRateLimiter } from '../../lib/rate-limiter';
import { redisAnswers } from '../../lib/redis';
import { msg } from '#shared/api/messages.ts';

const DB_CHECK_MS = 2000;

async function databaseAnswers(ctx: AppContext): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), DB_CHECK_MS)));
  const check = ctx.db.execute(sql`select 1`).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([check, late]);
  } finally {
    clearTimeout(timer);
  }
}

export const healthRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/health', { schema: { response: { 200: HealthResponse, 503: MessageBody } } }, async () => {
    if (!(await databaseAnswers(ctx))) throw new AppError(503, 'unavailable', msg('errors.databaseUnavailable'));
    return { status: 'ok' as const, build: ctx.buildId, database: ctx.dbKind };
  });

  // Liveness asks nothing of the database or Redis: an outage there is not cured by a restart.
  app.get('/health/live', { config: { database: false }, schema: { response: { 200: LiveResponse } } }, async () => ({
    status: 'ok' as const,
  }));

  app.get('/health/ready', { schema: { response: { 200: ReadyResponse, 503: MessageBody } } }, async () => {
    if (ctx.lifecycle?.draining) throw new AppError(503, 'unavailable', msg('errors.notReady'));
    const redis = ctx.limiter instanceof RedisRateLimiter ? ctx.limiter.redis : undefined;
    const [database, redisOk] = await Promise.all([databaseAnswers(ctx), redis ? redisAnswers(redis) : true]);
    if (!database) throw new AppError(503, 'unavailable', msg('errors.databaseUnavailable'));
    if (!redisOk) throw new AppError(503, 'unavailable', msg('errors.notReady'));
    return {
      status: 'ok' as const,
      build: ctx.buildId,
      database: ctx.dbKind,
      redis: redis ? ('ok' as const) : ('none' as const),
    };
  });
};
