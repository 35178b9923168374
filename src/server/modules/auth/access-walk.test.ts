// Walks EVERY route registered under /api and calls it as a visitor, as another advertiser, as the
// owner and as an admin, checking 401/403/allowed against the table below. A route missing from the
// table fails the test: whoever adds a route adds its line here, and so decides who may call it.
//
// Guards must run before the body is validated (onRequest, see auth/guards.ts): the walk sends bodies
// that are empty or invalid, so a visitor must get 401 and a stranger 403, never a 422.
import type { HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdvertiser, createSession, seedGeo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { registeredRoutes } from '../../test/routes';

type Access =
  /** Anyone, signed in or not. */
  | 'public'
  /** Any signed-in account (acts on itself). */
  | 'user'
  /** The account named by :id, or an admin. */
  | 'owner'
  /** Admins only. */
  | 'admin'
  /** Server-to-server (provider webhooks): no session decides, the signature does; unsigned is 401 for all. */
  | 'signed';

interface Rule {
  access: Access;
  /** Values of path parameters other than an owner's :id. */
  params?: Record<string, string>;
  body?: unknown;
}

const ROUTES: Record<string, Rule> = {
  'GET /api/health': { access: 'public' },
  // liveness and readiness for load balancers and orchestrators (issue 24, item 4)
  'GET /api/health/live': { access: 'public' },
  'GET /api/health/ready': { access: 'public' },
  // the OpenAPI document of these routes (src/server/plugins/api-docs.ts)
  'GET /api/docs.json': { access: 'public' },
  // share bar: Tumblr's count through our server (docs/decisions/0805)
  'GET /api/share/tumblr': { access: 'public' },
  // app
  'POST /api/app/getData/:x': { access: 'user', params: { x: 'walk' } },
  'POST /api/app/ping': { access: 'user' },
  'GET /api/app/config': { access: 'public' },
  'GET /api/getLanguage/:lang': { access: 'public', params: { lang: 'de' } },
  // auth
  'POST /api/auth/register': { access: 'public' },
  'POST /api/auth/login': { access: 'public' },
  'POST /api/auth/logout': { access: 'public' },
  'POST /api/auth/verify': { access: 'public' },
  'POST /api/auth/forgotPassword': { access: 'public' },
  'POST /api/auth/resetPassword': { access: 'public' },
  'POST /api/recover': { access: 'public' },
  'POST /api/auth/resendVerification': { access: 'user' },
  'POST /api/auth/setNewPassword': { access: 'user' },
  'POST /api/auth/connect': { access: 'user' },
  'POST /api/auth/switch': { access: 'user' },
  'POST /api/auth/unlink': { access: 'user' },
  'GET /api/auth/links': { access: 'user' },
  // account screen /edit/account/{id}
  'GET /api/account/:id': { access: 'owner' },
  'POST /api/account/:id/email': { access: 'owner' },
  'POST /api/account/:id/mobile': { access: 'owner' },
  'POST /api/account/:id/password': { access: 'owner' },
  'POST /api/account/:id/username': { access: 'owner' },
  'POST /api/account/:id/delete': { access: 'owner' },
  'POST /api/account/:id/language': { access: 'owner', body: { language: 'de' } },
  // public directory
  'GET /api/directory/countries': { access: 'public' },
  'POST /api/directory/getNavigation': { access: 'public' },
  'POST /api/directory/getDirectory': { access: 'public' },
  'POST /api/directory/getToursAhead': { access: 'public' },
  'POST /api/directory/search': { access: 'public' },
  'POST /api/directory/setFeedback': { access: 'public' },
  'POST /api/directory/nearby': { access: 'public' },
  'POST /api/help/contact': { access: 'public' },
  'GET /api/directory/feed/:kind': { access: 'public', params: { kind: 'tours' } },
  'POST /api/directory/impressions': { access: 'public' },
  'POST /api/directory/phoneReveal/:id': { access: 'public' },
  'GET /api/getProfile/:id': { access: 'public' },
  'GET /api/getProfileByName/:name': { access: 'public', params: { name: 'nobody' } },
  // comments (the service checks that the deleter owns the comment's profile or is an admin: comments.test.ts)
  'GET /api/comments/:profileId': { access: 'public' },
  'POST /api/comments/:profileId': { access: 'user', body: { body: 'Walked here.' } },
  'POST /api/comments/delete/:commentId': { access: 'user', params: { commentId: '2147483000' } },
  // media (uploads act on the signed-in account, or ?id= for an admin: media.test.ts)
  'POST /api/upload/photo/:type': { access: 'user', params: { type: 'gallery' } },
  'POST /api/upload/video/:id': { access: 'owner' },
  'GET /api/edit/getGallery/:id': { access: 'owner' },
  'POST /api/edit/deleteMedia/:id': { access: 'owner', body: { id: 2147483000 } },
  'POST /api/edit/updateGalleryPos/:id': { access: 'owner', body: { gallery: [] } },
  'GET /api/edit/deleteVideo/:id': { access: 'owner' },
  'POST /api/edit/deleteAllMedia/:id': { access: 'owner' },
  'GET /api/edit/videoProgress/:id': { access: 'owner' },
  'GET /api/edit/videoFile/:id': { access: 'owner' },
  // verification (decisions are the admin screen's: verification.test.ts)
  'GET /api/edit/getVerification/:id': { access: 'owner' },
  'POST /api/edit/verify/:id': { access: 'owner' },
  'GET /api/admin/photo-id/:requestId': { access: 'admin', params: { requestId: '2147483000' } },
  // money (the service checks whose transactions and payments a caller may read: money.test.ts)
  'GET /api/payment/products': { access: 'public' },
  'GET /api/payment/getData': { access: 'user' },
  'GET /api/payment/getCart': { access: 'user' },
  'POST /api/payment/addToCart': { access: 'user' },
  'POST /api/payment/removeCartItem': { access: 'user' },
  'POST /api/payment/makePayment': { access: 'user' },
  'GET /api/payment/getPayment/:paymentId': { access: 'user', params: { paymentId: '2147483000' } },
  'POST /api/payment/getTransactions': { access: 'user' },
  'GET /api/payment/getTransactionsCsv': { access: 'user' },
  // a credited load's receipt (decision 0422): someone else's or a missing one is 404 alike
  'GET /api/payment/receipt/:paymentId': { access: 'user', params: { paymentId: '2147483000' } },
  'GET /api/payment/getBankDetails/:id': { access: 'owner' },
  'POST /api/payment/webhook/:provider': { access: 'signed', params: { provider: 'sandbox' } },
  // a provider's notification sent as a signed GET (Verotel FlexPay's postback, decision 0420)
  'GET /api/payment/webhook/:provider': { access: 'signed', params: { provider: 'sandbox' } },
  'POST /api/admin/products': { access: 'admin' },
  'POST /api/admin/adjustBalance': { access: 'admin' },
  'POST /api/admin/recordBankTransfer': { access: 'admin' },
  // refunds and held accounts (decision 0423)
  'GET /api/admin/loads/:paymentId': { access: 'admin', params: { paymentId: '2147483000' } },
  'POST /api/admin/refundLoad': { access: 'admin' },
  'GET /api/admin/heldAccounts': { access: 'admin' },
  'POST /api/admin/releaseHold': { access: 'admin' },
  // auto-topup and notices
  'GET /api/auto-topup/getData/:id': { access: 'owner' },
  'POST /api/auto-topup/setTimer/:id': { access: 'owner' },
  'POST /api/auto-topup/deleteTimer/:id': { access: 'owner' },
  'GET /api/auto-topup/getCart/:id': { access: 'owner' },
  'GET /api/admin/getAutoTopup': { access: 'admin' },
  // admin panel (the admin module; what each call does: admin.test.ts)
  'GET /api/admin/getOverview': { access: 'admin' },
  'POST /api/admin/search': { access: 'admin', body: { q: '' } },
  'GET /api/admin/getUserData/:id': { access: 'admin' },
  'POST /api/admin/flag': { access: 'admin' },
  'GET /api/admin/warn/:id': { access: 'admin' },
  'POST /api/admin/getVerificationData': { access: 'admin' },
  'POST /api/admin/verify': { access: 'admin' },
  'GET /api/admin/getVideos': { access: 'admin' },
  'POST /api/admin/verifyVideo/:id': { access: 'admin', body: { decision: 'approved' } },
  'POST /api/admin/getReports': { access: 'admin' },
  'POST /api/admin/resolveReport': { access: 'admin' },
  'GET /api/admin/getDuplicates': { access: 'admin' },
  'POST /api/admin/scanDuplicates': { access: 'admin' },
  'POST /api/admin/dismissDuplicate': { access: 'admin' },
  'POST /api/admin/getAuditLog': { access: 'admin' },
  'GET /api/notices': { access: 'user' },
  'POST /api/notices/read': { access: 'user' },
  // profile edit (/update names its profile in the body: a stranger's user_id is a 403, profile-edit.test.ts)
  'GET /api/getUpdateData/:id': { access: 'owner' },
  'POST /api/update': { access: 'user' },
  'POST /api/edit/setAttribute/:id': { access: 'owner' },
  'POST /api/edit/getAttribute/:id': { access: 'owner', body: { attribute: 'ad_status' } },
  'GET /api/edit/getOverview/:id/:days': { access: 'owner', params: { days: '30' } },
  'GET /api/edit/findCities': { access: 'user' },
  'GET /api/edit/getListings/:id': { access: 'owner' },
  'POST /api/edit/setTourDates/:id': { access: 'owner' },
  'POST /api/edit/setAvailableNow/:id': { access: 'owner' },
};

let t: TestApp;
let routes: Array<{ method: string; url: string }>;
const people: Record<'owner' | 'stranger' | 'admin', number> = { owner: 0, stranger: 0, admin: 0 };

beforeAll(async () => {
  t = await createTestApp();
  await seedGeo(t.ctx);
  people.owner = (await createAdvertiser(t.ctx)).account.id;
  people.stranger = (await createAdvertiser(t.ctx)).account.id;
  people.admin = (await createAdvertiser(t.ctx, { role: 'admin' })).account.id;
  routes = registeredRoutes(t.app).filter((r) => r.url.startsWith('/api/'));
});
afterAll(() => t.close());

type Caller = 'visitor' | keyof typeof people;

function urlFor(url: string, rule: Rule) {
  return url.replace(
    /:(\w+)/g,
    (_m, name: string) => rule.params?.[name] ?? (name === 'id' ? String(people.owner) : 'x'),
  );
}

async function callAs(caller: Caller, method: string, url: string, rule: Rule) {
  // A fresh session per call: logout, switch and delete end the session they run in.
  const session = caller === 'visitor' ? {} : await createSession(t.ctx, people[caller]);
  const res = await t.app.inject({
    method: method as HTTPMethods,
    url: urlFor(url, rule),
    ...session,
    ...(method === 'GET' ? {} : { payload: (rule.body ?? {}) as object }),
    remoteAddress: `10.7.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  });
  return res.statusCode;
}

function expected(access: Access, caller: Caller): 'allowed' | 401 | 403 {
  if (access === 'public') return 'allowed';
  if (access === 'signed') return 401;
  if (caller === 'visitor') return 401;
  if (access === 'user') return 'allowed';
  if (access === 'owner') return caller === 'stranger' ? 403 : 'allowed';
  return caller === 'admin' ? 'allowed' : 403;
}

describe('access walk over every /api route', () => {
  it('finds the routes (the parser agrees with the router)', () => {
    expect(routes.length).toBeGreaterThan(20);
    for (const r of routes)
      expect(t.app.hasRoute({ method: r.method as HTTPMethods, url: r.url }), `${r.method} ${r.url}`).toBe(true);
  });

  it('every route has a line in the table, and every line a route', () => {
    const keys = routes.map((r) => `${r.method} ${r.url}`);
    const missing = keys.filter((k) => !(k in ROUTES));
    expect(missing, 'routes missing from the access table of access-walk.test.ts').toEqual([]);
    const stale = Object.keys(ROUTES).filter((k) => !keys.includes(k));
    expect(stale, 'table lines whose route no longer exists').toEqual([]);
  });

  it('keeps the structural rules: /admin is admin-only, /account/:id and /edit/... are owner-only', () => {
    for (const [key, rule] of Object.entries(ROUTES)) {
      const url = key.split(' ')[1];
      if (url.startsWith('/api/admin/')) expect(rule.access, key).toBe('admin');
      if (/^\/api\/(account|edit)\/.*:id/.test(url)) expect(rule.access, key).toBe('owner');
    }
  });

  it('answers each caller as the table says', async () => {
    const wrong: string[] = [];
    for (const { method, url } of routes) {
      const rule = ROUTES[`${method} ${url}`];
      if (!rule) continue;
      for (const caller of ['visitor', 'stranger', 'owner', 'admin'] as const) {
        const status = await callAs(caller, method, url, rule);
        const want = expected(rule.access, caller);
        const ok = want === 'allowed' ? status !== 401 && status !== 403 && status < 500 : status === want;
        if (!ok) wrong.push(`${method} ${url} as ${caller}: ${status}, expected ${want}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
