// Every screen of spec section 2: path, lazy section and meta. The client router and the server
// (SSR, sitemap, SPA fallback) both read this table.
export type Section = 'directory' | 'edit' | 'auth' | 'checkout' | 'settings' | 'admin';

export interface RouteMeta {
  name: string;
  /** React Router path pattern. */
  path: string;
  section: Section;
  /** i18n key of the document title (namespace "titles"). */
  title: string;
  /** Top navigation width. */
  nav: 'full' | 'contained';
  /** Only for signed-in users (a 401 opens the login modal). */
  auth?: boolean;
  admin?: boolean;
}

export const BODY_ID_SUFFIX = '-page';

export const ROUTES: RouteMeta[] = [
  { name: 'home', path: '/', section: 'directory', title: 'home', nav: 'full' },
  // auth
  { name: 'login', path: '/login', section: 'auth', title: 'login', nav: 'contained' },
  { name: 'new-login', path: '/new-login', section: 'auth', title: 'login', nav: 'contained' },
  { name: 'register', path: '/register', section: 'auth', title: 'register', nav: 'contained' },
  { name: 'forgot-password', path: '/forgot-password', section: 'auth', title: 'forgotPassword', nav: 'contained' },
  { name: 'verify-pin', path: '/verify/pin/:hash', section: 'auth', title: 'verifyPin', nav: 'contained' },
  { name: 'verify', path: '/verify/:type/:target', section: 'auth', title: 'verify', nav: 'contained' },
  { name: 'recover', path: '/recover/:id/:hash', section: 'auth', title: 'recover', nav: 'contained' },
  // public
  { name: 'profile-by-name', path: '/@:name', section: 'directory', title: 'profile', nav: 'full' },
  { name: 'profile', path: '/profile/:id', section: 'directory', title: 'profile', nav: 'full' },
  { name: 'nearby', path: '/escorts/nearby', section: 'directory', title: 'nearby', nav: 'full' },
  { name: 'escorts', path: '/escorts/:country/:place?', section: 'directory', title: 'escorts', nav: 'full' },
  { name: 'trans', path: '/trans/:country/:place?', section: 'directory', title: 'trans', nav: 'full' },
  { name: 'dom', path: '/dom/:country/:place?', section: 'directory', title: 'dom', nav: 'full' },
  { name: 'male', path: '/male/:country/:place?', section: 'directory', title: 'male', nav: 'full' },
  { name: 'female', path: '/female/:country/:place?', section: 'directory', title: 'female', nav: 'full' },
  { name: 'countries', path: '/countries', section: 'directory', title: 'countries', nav: 'contained' },
  { name: 'bookmarks', path: '/bookmarks', section: 'directory', title: 'bookmarks', nav: 'full' },
  { name: 'search', path: '/search', section: 'directory', title: 'search', nav: 'full' },
  { name: 'feed', path: '/feed', section: 'directory', title: 'feed', nav: 'full' },
  { name: 'what-you-get', path: '/what-you-get', section: 'directory', title: 'whatYouGet', nav: 'contained' },
  { name: 'shop', path: '/shop', section: 'directory', title: 'shop', nav: 'contained' },
  { name: 'help', path: '/help', section: 'directory', title: 'help', nav: 'contained' },
  { name: 'page-not-found', path: '/page-not-found', section: 'directory', title: 'notFound', nav: 'contained' },
  // edit
  { name: 'edit', path: '/edit/:id', section: 'edit', title: 'edit', nav: 'contained', auth: true },
  {
    name: 'edit-account',
    path: '/edit/account/:id',
    section: 'settings',
    title: 'account',
    nav: 'contained',
    auth: true,
  },
  { name: 'edit-media', path: '/edit/media/:id', section: 'edit', title: 'media', nav: 'contained', auth: true },
  {
    name: 'edit-auto-topup',
    path: '/edit/auto-topup/:id',
    section: 'edit',
    title: 'autoTopup',
    nav: 'contained',
    auth: true,
  },
  { name: 'edit-load', path: '/edit/load/:id', section: 'checkout', title: 'load', nav: 'contained', auth: true },
  { name: 'edit-gallery', path: '/edit/gallery/:id', section: 'edit', title: 'gallery', nav: 'contained', auth: true },
  {
    name: 'edit-verify',
    path: '/edit/verify/:id',
    section: 'edit',
    title: 'verifyProfile',
    nav: 'contained',
    auth: true,
  },
  {
    name: 'edit-location',
    path: '/edit/location/:id',
    section: 'edit',
    title: 'location',
    nav: 'contained',
    auth: true,
  },
  {
    name: 'edit-listing',
    path: '/edit/directory/listing/:id',
    section: 'edit',
    title: 'listing',
    nav: 'contained',
    auth: true,
  },
  // payment
  {
    name: 'checkout-method',
    path: '/checkout/method',
    section: 'checkout',
    title: 'checkoutMethod',
    nav: 'contained',
    auth: true,
  },
  { name: 'checkout-cart', path: '/checkout/cart', section: 'checkout', title: 'cart', nav: 'contained', auth: true },
  {
    name: 'transactions',
    path: '/transactions/:userId',
    section: 'checkout',
    title: 'transactions',
    nav: 'contained',
    auth: true,
  },
  // admin
  {
    name: 'admin-overview',
    path: '/admin/overview',
    section: 'admin',
    title: 'adminOverview',
    nav: 'full',
    auth: true,
    admin: true,
  },
  {
    name: 'admin-verify',
    path: '/admin/verify',
    section: 'admin',
    title: 'adminVerify',
    nav: 'full',
    auth: true,
    admin: true,
  },
  {
    name: 'admin-users',
    path: '/admin/users',
    section: 'admin',
    title: 'adminUsers',
    nav: 'full',
    auth: true,
    admin: true,
  },
  {
    name: 'admin-videos',
    path: '/admin/videos',
    section: 'admin',
    title: 'adminVideos',
    nav: 'full',
    auth: true,
    admin: true,
  },
  {
    name: 'admin-auto-topup',
    path: '/admin/auto-topup',
    section: 'admin',
    title: 'adminAutoTopup',
    nav: 'full',
    auth: true,
    admin: true,
  },
  // Admin screens beyond the spec's five (issue 12): reports, duplicate pictures, audit log, money.
  {
    name: 'admin-reports',
    path: '/admin/reports',
    section: 'admin',
    title: 'adminReports',
    nav: 'full',
    auth: true,
    admin: true,
  },
  {
    name: 'admin-duplicates',
    path: '/admin/duplicates',
    section: 'admin',
    title: 'adminDuplicates',
    nav: 'full',
    auth: true,
    admin: true,
  },
  {
    name: 'admin-audit',
    path: '/admin/audit',
    section: 'admin',
    title: 'adminAudit',
    nav: 'full',
    auth: true,
    admin: true,
  },
  {
    name: 'admin-money',
    path: '/admin/money',
    section: 'admin',
    title: 'adminMoney',
    nav: 'full',
    auth: true,
    admin: true,
  },
];

/** Old paths that move permanently. */
export const LEGACY_PREFIXES: Record<string, string> = { '/all/': '/escorts/' };

export const SECTIONS: Section[] = ['directory', 'edit', 'auth', 'checkout', 'settings', 'admin'];

export interface RouteMatch {
  route: RouteMeta;
  params: Record<string, string>;
}

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const compiled = ROUTES.map((route) => {
  const names: string[] = [];
  const source = route.path
    .split('/')
    .filter(Boolean)
    .map((part) => {
      const param = /^(.*?):(\w+)(\?)?$/.exec(part);
      if (!param) return `/${escapeRe(part)}`;
      names.push(param[2]);
      const segment = `/${escapeRe(param[1])}([^/]+)`;
      // An optional segment takes its slash with it: /escorts/uk and /escorts/uk/london.
      return param[3] ? `(?:${segment})?` : segment;
    })
    .join('');
  return { route, names, re: new RegExp(`^${source}/?$`) };
});

/**
 * The screen of a path, as the client router resolves it (first match in table order), or null for an
 * unknown path. Parameters are URL-decoded.
 */
export function matchRoute(pathname: string): RouteMatch | null {
  for (const { route, names, re } of compiled) {
    const m = re.exec(pathname);
    if (!m) continue;
    const params: Record<string, string> = {};
    names.forEach((name, i) => {
      if (m[i + 1] !== undefined) params[name] = safeDecode(m[i + 1]);
    });
    return { route, params };
  }
  return null;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The permanent redirect of an old path (/all/... -> /escorts/...), or null. */
export function legacyRedirect(url: string): string | null {
  for (const [from, to] of Object.entries(LEGACY_PREFIXES))
    if (url.startsWith(from)) return to + url.slice(from.length);
  return null;
}
