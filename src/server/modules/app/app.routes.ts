// Current-user data for the shell (spec: POST /app/getData/{x} -> language, complete, verify).
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { accounts, profiles } from '../../db/schema';
import { requireUser } from '../../plugins/session';

export const appRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post('/app/getData/:x', { schema: { params: z.object({ x: z.string().max(50) }) } }, async (req) => {
    const user = requireUser(req);
    const [row] = await ctx.db
      .select({
        language: accounts.language,
        complete: profiles.complete,
        verification: profiles.verificationStatus,
        emailVerifiedAt: accounts.emailVerifiedAt,
      })
      .from(accounts)
      .leftJoin(profiles, eq(profiles.userId, accounts.id))
      .where(eq(accounts.id, user.id));
    return {
      user_id: user.id,
      username: user.username,
      role: user.role,
      language: row?.language ?? 'en',
      complete: row?.complete ?? false,
      verify: row?.verification ?? 'none',
      email_verified: !!row?.emailVerifiedAt,
    };
  });
};
