// Every route the app registered, from Fastify's own route tree (tests that walk all routes).
import type { FastifyInstance } from 'fastify';

/** Parses printRoutes({ commonPrefix: false }): children are printed relative to their parent. */
export function parseRouteTree(tree: string): Array<{ method: string; url: string }> {
  const out: Array<{ method: string; url: string }> = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^(.*?)(?:├── |└── )(\S+) \(([A-Z, ]+)\)$/.exec(line);
    const bare = /^(.*?)(?:├── |└── )(\S+)$/.exec(line);
    const hit = m ?? bare;
    if (!hit) continue;
    const depth = hit[1].length / 4;
    stack.length = depth;
    const url = (depth > 0 ? stack[depth - 1] : '') + hit[2];
    stack[depth] = url;
    if (m) for (const method of m[3].split(', ')) out.push({ method, url });
  }
  return out;
}

/** The app's routes, HEAD left out (Fastify adds one to every GET). */
export const registeredRoutes = (app: FastifyInstance) =>
  parseRouteTree(app.printRoutes({ commonPrefix: false })).filter((r) => r.method !== 'HEAD');

/** The money routes: payments, auto-topup, and the admin's calls on money (the card guard's and input tests' walk). */
export const moneyRoutes = (app: FastifyInstance) =>
  registeredRoutes(app).filter(
    ({ url }) =>
      url.startsWith('/api/payment/') ||
      url.startsWith('/api/auto-topup/') ||
      [
        '/api/admin/products',
        '/api/admin/adjustBalance',
        '/api/admin/recordBankTransfer',
        '/api/admin/getAutoTopup',
      ].includes(url),
  );
