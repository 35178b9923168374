// No card number enters through any route (PCI DSS SAQ-A; issue 21 item 3, decisions 0400 and 0810).
// One preValidation hook for every route of the app: the body (every string and number, every key, at
// any depth), the query string and the path values are searched for card numbers (lib/card-numbers.ts)
// after they are parsed and before the route's schema, guards of its own after onRequest, handler,
// cache or limiter sees them, and a request that carries one is refused with the 422 envelope naming
// the field: "Card numbers can't be posted here." So no routes file has to remember it, and a route
// added tomorrow is covered. The request's log line shows the URL masked (app.ts, logRequest).
//
// Not searched: the payment providers' webhooks (a signed notification; an acquirer's transaction id in
// it is the acquirer's, and the body is kept as bytes for its signature) and the sandbox acquirer's own
// pages (its tokenizer is where card numbers are meant to go), and the public media files (`/media/<key>`:
// a GET of a key the store wrote, random hex and a width, which can end in a Luhn-valid run of digits: one avatar variant
// of ~30,000 was refused with a 422). A phone field, and a run of digits written from "+", is a phone number.
// What a card number is, in any writing (no-break spaces, dashes, dots, full-width digits...): lib/card-numbers.ts.
// The Host and the client address (X-Forwarded-For) are searched on every request, at onRequest, since
// the page cache and the route limits key by them before any preValidation.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { msg } from '#shared/api/messages.ts';
import { hasCardNumber } from '../lib/card-numbers';
import { ValidationError } from '../lib/errors';

const NOT_SEARCHED = ['/sandbox-acquirer/', '/api/payment/webhook/', '/media/'];
const PHONE_FIELD = /phone|mobile/i;

/** The field (dotted path) of the first card number in `value`, or null. Walks without recursion. */
export function cardNumberField(value: unknown, root: string): string | null {
  const stack: Array<[unknown, string, string]> = [[value, root, '']];
  while (stack.length) {
    const [v, path, key] = stack.pop()!;
    if (typeof v === 'string') {
      if (!PHONE_FIELD.test(key) && hasCardNumber(v)) return path;
    } else if (typeof v === 'number' || typeof v === 'bigint') {
      if (hasCardNumber(String(v))) return path;
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push([item, join(path, String(i)), key]));
    } else if (v && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [k, item] of Object.entries(v)) {
        // A key that holds one is reported as its parent: the answer must not repeat the number.
        if (hasCardNumber(k)) return path;
        stack.push([item, join(path, k), k]);
      }
    }
  }
  return null;
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** Throws the 422 when the request's body, query string or path values hold a card number. */
export async function refuseCardNumbers(request: FastifyRequest): Promise<void> {
  const field =
    cardNumberField(request.params, '') ?? cardNumberField(request.query, '') ?? cardNumberField(request.body, '');
  if (field !== null) throw ValidationError.field(field || 'body', msg('errors.cardNumber'));
}

/** Whether the guard searches the requests of the route at this URL (its pattern, `/api/x/:id`). */
export const cardSearched = (url: string) => !NOT_SEARCHED.some((prefix) => url.startsWith(prefix));

/**
 * The request's Host (or X-Forwarded-Host) and client address (X-Forwarded-For behind a proxy) as the app
 * reads them: the page cache's keys, the route limits' keys and the session row hold them. Neither is ever
 * a card number, and a request that carries one there is refused like a field. (The User-Agent, text a
 * browser writes, is stored scrubbed instead: auth/session.repo.ts.)
 */
export function refuseCardHeaders(request: FastifyRequest): void {
  if (hasCardNumber(request.host)) throw ValidationError.field('host', msg('errors.cardNumber'));
  if (hasCardNumber(request.ip)) throw ValidationError.field('x-forwarded-for', msg('errors.cardNumber'));
}

/** Call before any route is registered. */
export function cardGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => refuseCardHeaders(request));
  app.addHook('preValidation', async (request) => {
    if (!cardSearched(request.routeOptions.url ?? request.url)) return;
    await refuseCardNumbers(request);
  });
}
