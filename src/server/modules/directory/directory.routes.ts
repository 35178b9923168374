import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FeedParams } from '#shared/schemas/feed.ts';
import { feed } from './feed.service';
import { z } from 'zod';
import { IdParam } from '#shared/api/fields.ts';
import { NotificationBody } from '#shared/api/errors.ts';
import { errorAnswers, NotModified, WRITE_ERRORS } from '#shared/schemas/route-answers.ts';
import {
  CountriesQuery,
  CountriesResponse,
  DirectoryFilter,
  DirectoryListBody,
  DirectoryPage,
  FeedbackBody,
  ImpressionsBody,
  ImpressionsResponse,
  Navigation,
  NearbyBody,
  NearbyPage,
  ListPageQuery,
  NearbyPageQuery,
  PhoneRevealResponse,
  Profile,
  ProfileName,
  ProfileResponse,
  SearchBody,
  ToursAhead,
  ToursAheadBody,
} from '#shared/schemas/directory.ts';
import { FeedPage } from '#shared/schemas/feed.ts';
import { filterKey as listFilterKey } from '#shared/rules/list-filters.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { sendAnswer } from '../../lib/answer-cache';
import { sent } from '../../lib/declared-answers';
import { requestLanguage } from '../../lib/i18n';
import { callLanguage } from '../../lib/message-i18n';
import { nameLanguage } from '../geo/city-names';
import type { Visitor } from '../../lib/visitor-count';
import { renderProfileHtml } from '../seo/seo.html';
import * as service from './directory.service';
import { search } from './search.service';
import { nearby } from './nearby.service';
import { answerCache, scopedAnswer, visitorProfile as cachedProfile } from './directory.cache';
import { scopes } from './directory.version';

// ?render=1 adds `view`, the server-rendered HTML of the profile (spec section 7), in the language of
// ?lang= or the host (docs/decisions/0004). Other query keys are ignored.
const ProfileQuery = z.object({
  render: z.enum(['0', '1', 'true', 'false']).optional().catch(undefined),
  lang: z.string().max(5).optional().catch(undefined),
  // track=0: a list that shows the profile (bookmarks) rather than a visitor opening it; no view counted.
  track: z.enum(['0', '1']).optional().catch(undefined),
});
const withView = (profile: Profile, req: { query: { render?: string }; hostname: string }) =>
  req.query.render === '1' || req.query.render === 'true'
    ? { ...profile, view: renderProfileHtml(profile, requestLanguage(req)) }
    : profile;

/** Who counts as one visitor for views and phone reveals (0808): the account, or address and browser. */
const visitorOf = (req: FastifyRequest): Visitor => ({
  accountId: req.user?.id ?? null,
  address: req.ip || 'unknown',
  userAgent: req.headers['user-agent'],
});

export const directoryRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  /**
   * A visitor's answer comes from the cache of serialised answers (with ETag and 304), a signed-in
   * user's is made for her. `key` names everything the answer depends on. The cached bytes bypass the
   * route's serializer, so they are the answer encoded by the route's own response schema: a visitor gets
   * the fields a signed-in user gets, and no other.
   */
  const answer = async <S extends z.ZodType>(
    req: FastifyRequest,
    reply: FastifyReply,
    key: string,
    schema: S,
    make: (v?: string) => Promise<z.output<S>>,
    /** What the answer depends on (docs/decisions/0730): its key starts with that scope's version. */
    scope: string,
  ) => {
    if (req.user) return make();
    const a = await scopedAnswer(ctx, scope, key, async (v) => ({ value: z.encode(schema, await make(v)) }));
    return sendAnswer(answerCache(ctx), req, reply, a);
  };
  const filterKey = (f: DirectoryFilter) => `${f.category}|${f.country}|${f.place ?? ''}`;
  // City and country names come in the caller's language (x-language, docs/decisions/0604): part of the
  // key, and of Vary for anyone who keeps the answers.
  const namesKey = (req: FastifyRequest) => nameLanguage(callLanguage(req)) ?? 'en';
  app.addHook('onSend', async (_req, reply, payload) => {
    const vary = String(reply.getHeader('vary') ?? '');
    if (!/x-language/i.test(vary)) void reply.header('vary', vary ? `${vary}, x-language` : 'x-language');
    return payload;
  });

  app.get(
    '/directory/countries',
    {
      schema: {
        querystring: CountriesQuery,
        response: { 200: CountriesResponse, 304: NotModified, ...errorAnswers(422) },
      },
    },
    async (req, reply) =>
      answer(
        req,
        reply,
        `countries|${req.query.category ?? 'escorts'}`,
        CountriesResponse,
        () => service.listCountries(ctx, req.query.category),
        scopes.countries,
      ),
  );

  app.post(
    '/directory/getNavigation',
    { schema: { body: DirectoryFilter, response: { 200: Navigation, ...WRITE_ERRORS, ...errorAnswers(404) } } },
    async (req, reply) =>
      answer(
        req,
        reply,
        `nav|${filterKey(req.body)}|${namesKey(req)}`,
        Navigation,
        (v) => service.getNavigation(ctx, req.body, v, callLanguage(req)),
        scopes.navigation(req.body.country),
      ),
  );

  app.post(
    '/directory/getDirectory',
    {
      schema: {
        body: DirectoryListBody,
        querystring: ListPageQuery,
        response: { 200: DirectoryPage, ...WRITE_ERRORS, ...errorAnswers(404) },
      },
    },
    // Keyed by the normalised filter (docs/decisions/0324): the same filter written otherwise is one answer.
    async (req, reply) =>
      answer(
        req,
        reply,
        `list|${filterKey(req.body)}|${listFilterKey(req.body.filters)}|${req.query.page}|${namesKey(req)}`,
        DirectoryPage,
        (v) => service.getDirectory(ctx, req.body, req.query.page, v, callLanguage(req)),
        scopes.list(req.body.country, req.body.place, req.body.category),
      ),
  );

  // A city page's coming visitors (issue 27 item 4): cached like its list, per UTC day (the 14-day window).
  app.post(
    '/directory/getToursAhead',
    { schema: { body: ToursAheadBody, response: { 200: ToursAhead, ...WRITE_ERRORS, ...errorAnswers(404) } } },
    async (req, reply) =>
      answer(
        req,
        reply,
        `ahead|${filterKey(req.body)}|${ctx.now().toISOString().slice(0, 10)}|${namesKey(req)}`,
        ToursAhead,
        (v) => service.getToursAhead(ctx, req.body, v, callLanguage(req)),
        scopes.list(req.body.country, req.body.place, req.body.category),
      ),
  );

  // A visitor's profile answer is cached (304 to a matching If-None-Match); a malformed id or name, or a
  // profile nobody may see, is a 404. The query's keys fall back rather than refuse (no 422).
  const profileAnswers = { 200: ProfileResponse, 304: NotModified, ...errorAnswers(404) };

  app.get(
    '/getProfile/:id',
    { schema: { params: IdParam, querystring: ProfileQuery, response: profileAnswers } },
    async (req, reply) =>
      req.user
        ? {
            profile: withView(
              await service.getProfile(ctx, { id: req.params.id }, req.user, {
                countView: req.query.track !== '0',
                visitor: visitorOf(req),
                lang: callLanguage(req),
              }),
              req,
            ),
          }
        : visitorProfile(req, reply, { id: req.params.id }, req.query.track !== '0'),
  );

  app.get(
    '/getProfileByName/:name',
    { schema: { params: z.object({ name: ProfileName }), querystring: ProfileQuery, response: profileAnswers } },
    async (req, reply) =>
      req.user
        ? {
            profile: withView(
              await service.getProfile(ctx, { name: req.params.name }, req.user, {
                visitor: visitorOf(req),
                lang: callLanguage(req),
              }),
              req,
            ),
          }
        : visitorProfile(req, reply, { name: req.params.name }, true),
  );

  /**
   * A visitor's profile answer from the cache; the view is counted on every read, cached or not. The
   * profile is encoded by the answer's schema before it is cached, as the serializer does for a
   * signed-in user's.
   */
  const visitorProfile = async (
    req: FastifyRequest & { query: z.infer<typeof ProfileQuery> },
    reply: FastifyReply,
    by: { id: number } | { name: string },
    countView: boolean,
  ) => {
    const rendered = req.query.render === '1' || req.query.render === 'true' ? requestLanguage(req) : null;
    const a = await cachedProfile(ctx, by, {
      visitor: countView ? visitorOf(req) : null,
      lang: callLanguage(req),
      rendered,
      wrap: (p) => z.encode(Profile, withView(p, req)),
    });
    return sendAnswer(answerCache(ctx), req, reply, a);
  };

  app.post(
    '/directory/search',
    { schema: { body: SearchBody, querystring: ListPageQuery, response: { 200: DirectoryPage, ...WRITE_ERRORS } } },
    async (req, reply) =>
      answer(
        req,
        reply,
        `search|${JSON.stringify(req.body.q)}|${listFilterKey(req.body.filters)}|${req.query.page}|${namesKey(req)}`,
        DirectoryPage,
        (v) => search(ctx, req.body.q, req.query.page, v, callLanguage(req), req.body.filters),
        scopes.content,
      ),
  );

  app.get(
    '/directory/feed/:kind',
    {
      schema: {
        params: FeedParams,
        querystring: ListPageQuery,
        response: { 200: FeedPage, 304: NotModified, ...errorAnswers(404, 422) },
      },
    },
    // A visitor's answer like the lists': the feed shows the same tables (profiles, listings, media, city
    // names). Tours are current by the app's clock to the day (a tour ends after its last day), so the
    // day is in the key of that kind.
    async (req, reply) =>
      answer(
        req,
        reply,
        `feed|${req.params.kind}|${req.query.page}|${namesKey(req)}|${req.params.kind === 'tours' ? ctx.now().toISOString().slice(0, 10) : ''}`,
        FeedPage,
        () => feed(ctx, req.params.kind, req.query.page, callLanguage(req)),
        scopes.content,
      ),
  );

  app.post(
    '/directory/nearby',
    {
      schema: {
        body: NearbyBody,
        querystring: NearbyPageQuery,
        // 429: too many deep pages waiting at once (docs/decisions/0802).
        response: { 200: NearbyPage, ...WRITE_ERRORS, ...errorAnswers(429) },
      },
    },
    async (req, reply) =>
      answer(
        req,
        reply,
        `nearby|${req.body.lat}|${req.body.lng}|${req.body.category}|${listFilterKey(req.body.filters)}|${req.query.page}|${namesKey(req)}`,
        NearbyPage,
        (v) => nearby(ctx, req.body, req.query.page, v, callLanguage(req)),
        scopes.content,
      ),
  );

  app.post(
    '/directory/impressions',
    {
      schema: { body: ImpressionsBody, response: { 200: ImpressionsResponse, ...WRITE_ERRORS, ...errorAnswers(429) } },
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
    },
    async (req) => service.recordImpressions(ctx, req.body.impressions),
  );

  app.post(
    '/directory/phoneReveal/:id',
    {
      schema: { params: IdParam, response: { 200: PhoneRevealResponse, ...WRITE_ERRORS, ...errorAnswers(404, 429) } },
      // A person reveals a few numbers a minute; the count itself is once per visitor and day (0808).
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
    },
    async (req) => service.recordPhoneReveal(ctx, req.params.id, visitorOf(req)),
  );

  app.post(
    '/directory/setFeedback',
    {
      // 404: the report names a profile that does not exist.
      schema: { body: FeedbackBody, response: { 200: NotificationBody, ...WRITE_ERRORS, ...errorAnswers(404, 429) } },
      config: { rateLimit: { max: 10, timeWindow: '10 minutes' } },
    },
    async (req) => sent(await service.submitFeedback(ctx, req.body.data, req.ip)),
  );
};
