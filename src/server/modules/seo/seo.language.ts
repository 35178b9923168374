// The language of a server-rendered page (docs/decisions/0601, 0605): ?lang=, else the host, else the
// signed-in account's saved language, else English, the rule the SPA follows (#shared/rules/language.ts)
// but for the device's switcher choice, which only the browser knows.
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Language } from '#shared/constants.ts';
import { pickLanguage, queryLanguage } from '#shared/rules/language.ts';
import type { AppContext } from '../../context';
import { accounts } from '../../db/schema';

/**
 * `personal`: the language came from the account, so the page is this user's and must be neither taken
 * from nor put into the visitors' cache of pages (docs/decisions/0700).
 */
export async function pageLanguage(
  ctx: AppContext,
  request: Pick<FastifyRequest, 'url' | 'hostname' | 'user'>,
): Promise<{ lang: Language; personal: boolean }> {
  const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
  const anonymous = pickLanguage({ hostname: request.hostname, search });
  if (!request.user || queryLanguage(search)) return { lang: anonymous, personal: false };
  const [row] = await ctx.db
    .select({ language: accounts.language })
    .from(accounts)
    .where(eq(accounts.id, request.user.id))
    .limit(1);
  const lang = pickLanguage({ hostname: request.hostname, search }, row?.language);
  return { lang, personal: true };
}
