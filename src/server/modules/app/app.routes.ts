// Current-user data for the shell (spec: POST /app/getData/{x} -> language, complete, verify) and the
// online ping (spec section 1: on start and every 10 minutes; the path is ours: POST /app/ping).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { text } from '#shared/api/fields.ts';
import { AppConfig, PingResponse } from '#shared/schemas/app.ts';
import { CurrentUser } from '#shared/schemas/auth.ts';
import type { AppContext } from '../../context';
import { requireUser } from '../../plugins/session';
import * as auth from '../auth/identity.service';
import { signedIn } from '../auth/guards';

export const appRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/app/getData/:x',
    { onRequest: signedIn, schema: { params: z.object({ x: text('x', 50) }), response: { 200: CurrentUser } } },
    async (req) => {
      const user = requireUser(req);
      // The shell refetches this every 10 minutes, so it counts as a ping too.
      await auth.touchLastSeen(ctx, user.id);
      return auth.currentUser(ctx, user.id);
    },
  );

  app.post('/app/ping', { onRequest: signedIn, schema: { response: { 200: PingResponse } } }, async (req) => {
    const user = requireUser(req);
    // Written at most once a minute per account, however often the browser pings.
    const written = await auth.touchLastSeen(ctx, user.id);
    return { data: { online: true as const, recorded: written } };
  });

  // What the browser needs to know of the server's configuration (nothing secret).
  app.get('/app/config', { schema: { response: { 200: AppConfig } } }, async () => ({
    build: ctx.buildId,
    fallback_landing_url: ctx.env.FALLBACK_LANDING_URL ?? null,
    currency: ctx.env.SITE_CURRENCY,
  }));
};
