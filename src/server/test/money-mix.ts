// The mixed money load of issue 21 (item 2), shared by money/mixed-load.test.ts (outcomes) and
// bench/money.bench.ts (payments per second, p99): many clients at once, each a fixed sequence of
// operations drawn from its own seeded generator, through the HTTP API only:
// - advertisers: cart edits (add a top-up or an additional location, remove an item), payments from the
//   balance (a third of them double-clicked: the same key twice at once), card loads through the sandbox
//   acquirer (approved, declined, or with the confirmation step answered and the payment polled), crypto
//   invoices of BTCPay (the stand-in) paid and notified by signed webhooks delivered twice at once, or
//   expired, and statement reads; a quarter of the card and crypto loads only load (purpose `load`). Half
//   the settlements of a load (a webhook, the poll after a confirmation step) run beside a payment of the
//   same cart from the balance, as from a second tab: the interleaving that deadlocked before decision
//   0401's lock order;
// - admins: balance adjustments (credits and debits, which may be refused below zero) and bank transfers.
// Every request is recorded with its answer; replayMix then sends every request whose key (idempotency
// key, bank transaction id, webhook delivery id) made something again and says where an answer differs.
import crypto from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { ApiAnswer, ApiClient, ApiRequest } from './api-client';
import type { StandIn } from './btcpay-stand-in';
import type { Session } from './factories';
import { sandboxToken } from './money';
import { bankReference } from '../modules/money/bank';

/** The app's settings for the mix (test and bench alike): its prices, both providers, raised route caps. */
export function mixEnv(btcpay: StandIn): Record<string, string> {
  return {
    PRICE_STANDARD_TOPUP: '500',
    PRICE_ADDITIONAL_LOCATION: '1500',
    MIN_TOPUP: '1000',
    CARD_PROVIDER: 'sandbox',
    CRYPTO_PROVIDER: 'btcpay',
    BTCPAY_URL: btcpay.url,
    BTCPAY_STORE_ID: btcpay.storeId,
    BTCPAY_API_KEY: btcpay.apiKey,
    BTCPAY_WEBHOOK_SECRET: btcpay.webhookSecret,
    RATE_LIMIT_SCALE: '1000',
  };
}

export interface MixConfig {
  api: ApiClient;
  advertisers: Array<{ id: number; session: Session }>;
  admin: Session;
  btcpay: StandIn;
  /** Concurrent clients, admins included. */
  clients: number;
  adminClients: number;
  opsPerClient: number;
  /** Fixes every client's sequence of operations (and tells the keys of two runs apart). */
  seed: number;
  /** Cities an additional location may be bought in (not the advertisers' home city). */
  cities: number[];
  /**
   * The card acquirer's signed chargeback of (part of) a load (decision 0423), as it would deliver it to
   * /api/payment/webhook/sandbox; null when the load was not a sandbox card charge. Without it, no
   * chargebacks are sent.
   */
  chargeback?: (paymentId: number, amount: number) => Promise<{ body: string; headers: Record<string, string> } | null>;
}

export type CallKind =
  | 'addToCart'
  | 'removeCartItem'
  | 'getCart'
  | 'token'
  | 'payBalance'
  | 'payCard'
  | 'payCrypto'
  | 'challenge'
  | 'getPayment'
  | 'webhook'
  | 'transactions'
  | 'adjust'
  | 'bank'
  | 'refund'
  | 'chargeback';

export interface Call {
  client: number;
  kind: CallKind;
  userId: number | null;
  method: 'GET' | 'POST';
  url: string;
  request: ApiRequest;
  status: number;
  ms: number;
  answer: unknown;
  /** The idempotency key (or bank transaction id, webhook delivery id) the request carried. */
  key?: string;
}

export interface MixRun {
  calls: Call[];
  ms: number;
}

/**
 * Client `client`'s draws under `seed`, each in [0, 1): SHA-256 of seed, client and draw number, so every
 * machine draws the same, and neighbouring clients and draws are unrelated (a small PRNG seeded with
 * neighbouring numbers gave correlated draws: one seed drew no card with a confirmation step at all).
 */
function generator(seed: number, client: number) {
  let n = 0;
  const next = () =>
    crypto
      .createHash('sha256')
      .update(`${seed}/${client}/${(n += 1)}`)
      .digest()
      .readUInt32BE(0) / 4294967296;
  return { next };
}

/** The item at `at` (0 <= at < 1) of the way through `items`. */
const pick = <T>(items: readonly T[], at: number): T => items[Math.floor(at * items.length)];

/** Letters only: a key never holds a run of digits the card guard could read as a card number. */
function letters(n: number, random: () => number) {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(97 + Math.floor(random() * 26));
  return s;
}

const parse = (res: ApiAnswer): unknown => {
  try {
    return res.json();
  } catch {
    return null;
  }
};

interface PaymentAnswer {
  data: {
    status: string;
    order: { id: number } | null;
    payment: {
      id: number;
      status: string;
      amount: number;
      method: string;
      next_action: { url: string } | null;
      invoice: { checkout_url: string | null } | null;
    } | null;
  };
}

const CARDS = {
  approved: '4242 4242 4242 4242',
  declined: '4000000000000002',
  challenge: '4000000000003220',
} as const;

export async function runMix(config: MixConfig): Promise<MixRun> {
  const calls: Call[] = [];
  const { api } = config;
  const started = performance.now();

  async function send(
    client: number,
    kind: CallKind,
    userId: number | null,
    method: 'GET' | 'POST',
    url: string,
    request: ApiRequest,
    key?: string,
  ) {
    const t0 = performance.now();
    // A connection that fails is an answer too (status 0), not the end of the run.
    const res = await api(method, url, request).catch((err: Error) => ({ status: 0, error: String(err) }));
    const call: Call = {
      client,
      kind,
      userId,
      method,
      url,
      request,
      status: res.status,
      ms: performance.now() - t0,
      answer: 'error' in res ? res.error : parse(res),
      ...(key ? { key } : {}),
    };
    calls.push(call);
    return call;
  }

  async function advertiserClient(client: number) {
    const rnd = generator(config.seed, client);
    const me = config.advertisers[client % config.advertisers.length];
    const session = me.session;
    const deliver = (hook: { body: string; headers: Record<string, string>; deliveryId: string }) =>
      send(
        client,
        'webhook',
        me.id,
        'POST',
        '/api/payment/webhook/btcpay',
        { raw: hook.body, headers: hook.headers },
        hook.deliveryId,
      );

    for (let op = 0; op < config.opsPerClient; op++) {
      // The same draws for every operation, whatever the answers: each client's sequence is fixed.
      const [r, a, b, c, d, e] = [rnd.next(), rnd.next(), rnd.next(), rnd.next(), rnd.next(), rnd.next()];
      const key = `mix${letters(8, rnd.next)}c${client}o${op}`;
      const pay = (body: Record<string, unknown>, kind: CallKind, k = key) =>
        send(
          client,
          kind,
          me.id,
          'POST',
          '/api/payment/makePayment',
          { session, body: { ...body, idempotency_key: k } },
          k,
        );
      // Half the settlements of a load race a payment of the same cart from the balance in another tab:
      // the settlement holds the money lock while it pays its order, the other tab consumes the cart.
      const otherTab = () => (d < 0.5 ? pay({ method: 'balance' }, 'payBalance', `${key}tab`) : Promise.resolve());
      const addTopup = () =>
        send(client, 'addToCart', me.id, 'POST', '/api/payment/addToCart', {
          session,
          body: { uid: 'standard_topup' },
        });
      const amount = b < 0.5 ? { amount: 1000 + Math.floor(c * 20) * 100 } : {};
      // A quarter of the loads only load (decision 0406): the cart stays as it is, whatever settles them.
      const purpose = e < 0.25 ? { purpose: 'load' } : {};
      if (r < 0.22) {
        const body =
          a < 0.5 ? { uid: 'standard_topup' } : { uid: 'additional_location', city_id: pick(config.cities, b) };
        await send(client, 'addToCart', me.id, 'POST', '/api/payment/addToCart', { session, body });
      } else if (r < 0.3) {
        const cart = await send(client, 'getCart', me.id, 'GET', '/api/payment/getCart', { session });
        const items = (cart.answer as { data?: { items?: Array<{ uid: string }> } } | null)?.data?.items ?? [];
        if (items.length)
          await send(client, 'removeCartItem', me.id, 'POST', '/api/payment/removeCartItem', {
            session,
            body: { uid: pick(items, a).uid },
          });
      } else if (r < 0.58) {
        // A third are double clicks: the same key twice at once.
        if (a < 0.33)
          await Promise.all([pay({ method: 'balance' }, 'payBalance'), pay({ method: 'balance' }, 'payBalance')]);
        else await pay({ method: 'balance' }, 'payBalance');
      } else if (r < 0.76) {
        const card = a < 0.7 ? CARDS.approved : a < 0.85 ? CARDS.declined : CARDS.challenge;
        const t0 = performance.now();
        const token = await sandboxToken(api, card);
        calls.push({
          client,
          kind: 'token',
          userId: me.id,
          method: 'POST',
          url: '/sandbox-acquirer/v1/tokens',
          request: {},
          status: 200,
          ms: performance.now() - t0,
          answer: null,
        });
        // A declined card and a confirmation step name an amount above any cart's total, so that they
        // are charged by card (no amount and a balance that covers the cart pays from the balance).
        const charged = card === CARDS.approved ? amount : { amount: 4000 };
        const paid = await pay({ method: 'card', card_token: token, ...charged, ...purpose }, 'payCard');
        const payment = (paid.answer as PaymentAnswer | null)?.data?.payment;
        if (paid.status === 200 && payment?.next_action) {
          await send(client, 'challenge', me.id, 'POST', payment.next_action.url, {
            raw: `outcome=${c < 0.8 ? 'approve' : 'fail'}`,
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          });
          await Promise.all([
            send(client, 'getPayment', me.id, 'GET', `/api/payment/getPayment/${payment.id}`, { session }),
            otherTab(),
          ]);
        }
      } else if (r < 0.92) {
        // An invoice for a cart (with a top-up in it) or, without the top-up, for a plain load.
        if (c < 0.6) await addTopup();
        const opened = await pay({ method: 'crypto', ...amount, ...purpose }, 'payCrypto');
        const link = (opened.answer as PaymentAnswer | null)?.data?.payment?.invoice?.checkout_url;
        const invoice = link ? link.slice(link.lastIndexOf('/') + 1) : null;
        if (opened.status === 200 && invoice && config.btcpay.invoices.has(invoice)) {
          if (a < 0.85) {
            config.btcpay.pay(invoice);
            // BTCPay may deliver one event twice at once (a retry racing the first delivery).
            const hook = config.btcpay.webhook('InvoiceSettled', invoice);
            await Promise.all([deliver(hook), deliver(hook), otherTab()]);
          } else {
            config.btcpay.expire(invoice);
            await deliver(config.btcpay.webhook('InvoiceExpired', invoice));
          }
        }
      } else {
        await send(client, 'transactions', me.id, 'POST', '/api/payment/getTransactions', {
          session,
          body: { user_id: me.id },
        });
      }
    }
  }

  async function adminClient(client: number) {
    const rnd = generator(config.seed, client);
    const session = config.admin;
    for (let op = 0; op < config.opsPerClient; op++) {
      const [r, a, b, c] = [rnd.next(), rnd.next(), rnd.next(), rnd.next()];
      const key = `mix${letters(8, rnd.next)}c${client}o${op}`;
      const target = pick(config.advertisers, a).id;
      if (r >= 0.75) {
        // A reversal of one of the target's credited loads (decision 0423): a refund through the admin
        // screen (the sandbox's refund API for cards, by hand for crypto and transfers) or a chargeback.
        let loads: number[] = [];
        for (let tries = 0; tries < 20 && !loads.length; tries++) {
          const statement = await api('POST', '/api/payment/getTransactions', { session, body: { user_id: target } });
          const rows = (parse(statement) as { data?: Array<{ receipt_id: number | null }> } | null)?.data ?? [];
          loads = rows.map((row) => row.receipt_id).filter((id): id is number => id !== null);
          if (!loads.length) await new Promise((resolve) => setTimeout(resolve, 250));
        }
        if (!loads.length) continue;
        const paymentId = pick(loads, b);
        const amount = 100 + Math.floor(c * 4) * 100;
        const hook = c < 0.4 && config.chargeback ? await config.chargeback(paymentId, amount) : null;
        if (hook)
          await send(
            client,
            'chargeback',
            target,
            'POST',
            '/api/payment/webhook/sandbox',
            { raw: hook.body, headers: hook.headers },
            `dispute ${key}`,
          );
        else
          await send(
            client,
            'refund',
            target,
            'POST',
            '/api/admin/refundLoad',
            { session, body: { payment_id: paymentId, amount, reason: 'mixed load', idempotency_key: key } },
            key,
          );
      } else if (r < 0.5) {
        // Credits and debits; a debit below zero is refused.
        const amount = b < 0.6 ? 100 + Math.floor(c * 20) * 100 : -(100 + Math.floor(c * 15) * 100);
        await send(
          client,
          'adjust',
          target,
          'POST',
          '/api/admin/adjustBalance',
          { session, body: { user_id: target, amount, reason: 'mixed load', idempotency_key: key } },
          key,
        );
      } else {
        const id = `bank ${key}`;
        const body = {
          reference: bankReference(target),
          amount: 500 + Math.floor(c * 20) * 100,
          bank_transaction_id: id,
        };
        await send(client, 'bank', target, 'POST', '/api/admin/recordBankTransfer', { session, body }, id);
      }
    }
  }

  await Promise.all(
    Array.from({ length: config.clients }, (_, client) =>
      client < config.adminClients ? adminClient(client) : advertiserClient(client),
    ),
  );
  return { calls, ms: performance.now() - started };
}

/** A first answer that made something of its key (and so must be answered the same way again). */
export function madeSomething(call: Call): boolean {
  if (!call.key) return false;
  if (call.status === 200) return true;
  // A declined card: the payment exists, failed, and is refused again the same way.
  const errors = (call.answer as { errors?: Record<string, unknown> } | null)?.errors;
  return call.kind === 'payCard' && call.status === 422 && !!errors?.card_token;
}

/** The order and payment a payment's answer names (`open`: it was pending or awaiting its confirmation step). */
function paymentIdentity(call: { status: number; answer: unknown }) {
  const a = call.answer as (PaymentAnswer & { errors?: object }) | null;
  if (call.status !== 200) return { status: call.status, errors: Object.keys(a?.errors ?? {}) };
  const d = a!.data;
  return {
    status: 200,
    result: d.status === 'pending' || d.status === 'requires_action' ? 'open' : d.status,
    order: d.order?.id ?? null,
    payment: d.payment ? { id: d.payment.id, amount: d.payment.amount, method: d.payment.method } : null,
  };
}

/** Does `replay` answer what `first` answered (a payment open at first may have settled since)? */
export function answersTheSame(first: Call, replay: { status: number; answer: unknown }): boolean {
  const a = replay.answer as { data?: { user_id?: number; transaction_id?: number; duplicate?: boolean } } | null;
  const f = first.answer as typeof a;
  switch (first.kind) {
    case 'payBalance':
    case 'payCard':
    case 'payCrypto': {
      const was = paymentIdentity(first);
      const now = paymentIdentity(replay);
      if (was.status !== 200 || was.result !== 'open') return isDeepStrictEqual(now, was);
      // Settled since: the same order and payment, or a card whose confirmation step failed (refused).
      if (now.status !== 200) return first.kind === 'payCard' && now.status === 422;
      return isDeepStrictEqual({ order: now.order, payment: now.payment }, { order: was.order, payment: was.payment });
    }
    case 'adjust':
    case 'bank':
      return (
        replay.status === 200 &&
        a?.data?.duplicate === true &&
        a.data.user_id === f?.data?.user_id &&
        a.data.transaction_id === f?.data?.transaction_id
      );
    case 'webhook':
    case 'chargeback':
      return replay.status === 200 && isDeepStrictEqual(replay.answer, { received: true, outcome: 'duplicate' });
    case 'refund': {
      const was = (first.answer as { data?: { payment_id?: number; user_id?: number } } | null)?.data;
      const now = (replay.answer as { data?: { payment_id?: number; user_id?: number; duplicate?: boolean } } | null)
        ?.data;
      return (
        replay.status === 200 &&
        now?.duplicate === true &&
        now.payment_id === was?.payment_id &&
        now.user_id === was?.user_id
      );
    }
    default:
      return false;
  }
}

export interface Replay {
  calls: Call[];
  /** Keys whose answers differ, with the first answer and the replay's. */
  mismatches: Array<{ key: string; kind: CallKind; first: unknown; replay: unknown }>;
}

/**
 * Sends every keyed request that made something again, `clients` at a time (answersTheSame: the same
 * order, payment or ledger transaction; a duplicate adjustment, transfer or webhook event).
 */
export async function replayMix(api: ApiClient, run: MixRun, clients: number): Promise<Replay> {
  const firsts = new Map<string, Call>();
  for (const call of run.calls) if (madeSomething(call) && !firsts.has(call.key!)) firsts.set(call.key!, call);
  const queue = [...firsts.values()];
  const calls: Call[] = [];
  const mismatches: Replay['mismatches'] = [];
  const send = async (first: Call): Promise<Call> => {
    const t0 = performance.now();
    const res = await api(first.method, first.url, first.request).catch((err: Error) => ({
      status: 0,
      error: String(err),
    }));
    const call = {
      ...first,
      status: res.status,
      ms: performance.now() - t0,
      answer: 'error' in res ? res.error : parse(res),
    };
    calls.push(call);
    return call;
  };
  const replayOne = async (first: Call) => {
    const again = await send(first);
    if (!answersTheSame(first, again))
      mismatches.push({ key: first.key!, kind: first.kind, first: first.answer, replay: again.answer });
  };
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await replayOne(next);
    }),
  );
  return { calls, mismatches };
}

/** The p-th percentile (0-100) of `values`, nearest rank. */
export function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
