// GET /api/getLanguage/{lang} (spec section 7): every catalogue of a language in one answer, for
// clients that do not bundle them. The answer names its version (a hash of the texts); asked with
// ?v=<that version> it is immutable and cached for a year, otherwise it is revalidated by ETag.
import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isLanguage } from '#shared/rules/language.ts';
import { errorAnswers, NotModified } from '#shared/schemas/route-answers.ts';
import { LanguageResponse } from '#shared/schemas/language.ts';
import type { AppContext } from '../../context';
import { sendEncoded } from '../../lib/declared-answers';
import { notFound } from '../../lib/errors';
import { readCatalogues } from '../../lib/i18n';

interface Served {
  body: string;
  version: string;
}

let served: Map<string, Served> | undefined;

/** Built once per process: the catalogues change only with a new build. */
export function languagePayloads(): Map<string, Served> {
  if (served) return served;
  const all = readCatalogues();
  served = new Map();
  for (const lang of ['en', 'de', 'es', 'pt']) {
    // Every language is served its own texts (Portuguese since 0606); `texts` says which.
    const texts = lang;
    const resources = all[texts] ?? {};
    const version = createHash('sha256').update(JSON.stringify(resources)).digest('hex').slice(0, 16);
    // Sent as these bytes, past the route's serializer: encoded here by the same schema.
    served.set(lang, {
      version,
      body: JSON.stringify(z.encode(LanguageResponse, { lang, texts, version, resources })),
    });
  }
  return served;
}

export const languageRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app) => {
  app.get(
    '/getLanguage/:lang',
    {
      schema: {
        params: z.object({ lang: z.string().max(20) }),
        querystring: z.object({ v: z.string().max(64).optional() }),
        // 404: a language the site does not speak; 422: a ?v= over 64 characters.
        response: { 200: LanguageResponse, 304: NotModified, ...errorAnswers(404, 422) },
      },
    },
    async (req, reply) => {
      const { lang } = req.params;
      const payload = isLanguage(lang) ? languagePayloads().get(lang) : undefined;
      if (!payload) throw notFound();
      const etag = `"${payload.version}"`;
      reply.header('etag', etag);
      reply.header(
        'cache-control',
        req.query.v === payload.version
          ? 'public, max-age=31536000, immutable'
          : 'public, max-age=300, must-revalidate',
      );
      if (req.headers['if-none-match'] === etag) return reply.code(304).send();
      return sendEncoded(reply, payload.body);
    },
  );
};
