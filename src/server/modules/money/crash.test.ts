// Issue 11, "How it is judged": the server killed with SIGKILL between the provider's answer and the
// ledger commit (fault.ts), then restarted, leaves every balance equal to its entries and no payment
// applied twice. The server is a real child process (src/server/test/server-process.ts) on a PGlite data
// directory, or on a PostgreSQL database of its own; it dies by SIGKILL at an injected point, the next
// start settles what the crash left open (settleOpenPayments, 2 s after start), and retries change nothing.
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntime, type Runtime } from '../../bootstrap';
import { ledgerTransactions, orders, payments, refundIntents, sandboxCharges } from '../../db/schema';
import { loadEnv } from '../../env';
import { httpClient } from '../../test/api-client';
import { startBtcpayStandIn } from '../../test/btcpay-stand-in';
import { startCutProxy } from '../../test/cut-proxy';
import { createAdvertiser, createSession, seedGeo, type Session } from '../../test/factories';
import { backend, createScratchDatabase } from '../../test/helpers';
import { killServer, spawnServer } from '../../test/spawn-server';
import { moneyProblems, sandboxToken } from '../../test/money';
import { addToCart } from './cart';
import * as money from './money.service';

const PRICE = 500;
const LOAD = 1000;

let dataDir: string;
let baseEnv: Record<string, string>;
let dropDatabase: (() => Promise<void>) | null = null;
let child: ChildProcess | null = null;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dir-crash-'));
  baseEnv = {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SESSION_SECRET: crypto.randomBytes(16).toString('hex'),
    LOG_LEVEL: 'silent',
    PRICE_STANDARD_TOPUP: String(PRICE),
    MIN_TOPUP: String(LOAD),
    CARD_PROVIDER: 'sandbox',
    CRYPTO_PROVIDER: 'sandbox',
  };
  if (backend === 'postgres') {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'crash');
    baseEnv.DATABASE_URL = scratch.url;
    dropDatabase = scratch.drop;
  }
});

afterAll(async () => {
  await killServer(child);
  await dropDatabase?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The database as the test's own process sees it (only while no server holds the PGlite directory). */
async function withDatabase<T>(fn: (runtime: Runtime) => Promise<T>): Promise<T> {
  const runtime = await openRuntime(loadEnv(baseEnv));
  try {
    return await fn(runtime);
  } finally {
    await runtime.close();
  }
}

interface Server {
  base: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function startServer(
  faultPoint?: 'after_provider_charge' | 'after_webhook_verified',
  env: Record<string, string> = {},
): Promise<Server> {
  // tsx as a loader, not its CLI: the process we watch is the one that kills itself.
  const server = await spawnServer('src/server/test/server-process.ts', {
    ...baseEnv,
    ...env,
    ...(faultPoint ? { MONEY_FAULT_POINT: faultPoint } : {}),
  });
  child = server.proc;
  return { base: server.base, exited: server.exited };
}

async function stopServer(server: Server) {
  child!.kill('SIGTERM');
  expect(await server.exited).toEqual({ code: 0, signal: null });
}

const api = (server: Server, session: Session | null, method: 'GET' | 'POST', url: string, body?: unknown) =>
  httpClient(server.base)(method, url, { session, body });

/** Waits (a few seconds at most) until the user's statement shows a load: the start-up settlement ran. */
async function waitForLoad(server: Server, session: Session, userId: number) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await api(server, session, 'POST', '/api/payment/getTransactions', { user_id: userId });
    const rows = ((await res.json()) as { data: Array<{ kind: string }> }).data;
    if (rows.some((r) => r.kind === 'load')) return rows;
    if (Date.now() > deadline) throw new Error(`no load for user ${userId}: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe(`SIGKILL between the provider's answer and the ledger commit (${backend})`, { timeout: 180_000 }, () => {
  it('a restart settles each payment once: balances equal their entries, retries change nothing', async () => {
    const setup = await withDatabase(async ({ ctx }) => {
      await seedGeo(ctx);
      const past = new Date(Date.now() - 86_400_000);
      const card = (await createAdvertiser(ctx, { bumpedAt: past })).account.id;
      const coin = (await createAdvertiser(ctx, { bumpedAt: past })).account.id;
      for (const id of [card, coin]) await addToCart(ctx, id, { uid: 'standard_topup' });
      return {
        card: { id: card, session: await createSession(ctx, card) },
        coin: { id: coin, session: await createSession(ctx, coin) },
      };
    });
    const cardKey = crypto.randomUUID();
    const coinKey = crypto.randomUUID();

    // 1. A card payment: the acquirer charges, the process dies before our ledger hears of it.
    let server = await startServer('after_provider_charge');
    const cardToken = await sandboxToken(httpClient(server.base), '4242 4242 4242 4242');
    const cardBody = { method: 'card', idempotency_key: cardKey, card_token: cardToken };
    await expect(api(server, setup.card.session, 'POST', '/api/payment/makePayment', cardBody)).rejects.toThrow();
    expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });

    // 2. Restarted: the start-up settlement credits the charge and pays the cart. Then a crypto invoice
    //    whose signed webhook is verified, and the process dies before the ledger commit.
    server = await startServer('after_webhook_verified');
    const cardRows = await waitForLoad(server, setup.card.session, setup.card.id);
    expect(cardRows.map((r) => r.kind).sort()).toEqual(['load', 'purchase']);
    const invoiceRes = await api(server, setup.coin.session, 'POST', '/api/payment/makePayment', {
      method: 'crypto',
      idempotency_key: coinKey,
    });
    expect(invoiceRes.status).toBe(200);
    const invoice = ((await invoiceRes.json()) as { data: { payment: { invoice: { simulate_url: string } } } }).data
      .payment.invoice;
    await expect(api(server, null, 'POST', invoice.simulate_url)).rejects.toThrow();
    expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });

    // 3. Restarted again: the invoice (paid at the processor) is settled; every retry answers the same.
    server = await startServer();
    await waitForLoad(server, setup.coin.session, setup.coin.id);
    const retried = await api(server, setup.card.session, 'POST', '/api/payment/makePayment', cardBody);
    expect(retried.status).toBe(200);
    expect(((await retried.json()) as { data: unknown }).data).toMatchObject({
      status: 'paid',
      balance: LOAD - PRICE,
    });
    // The processor delivers again (a new event for the same settled invoice): nothing more.
    const redelivered = await api(server, null, 'POST', invoice.simulate_url);
    expect(await redelivered.json()).toEqual({ delivered: 200 });
    const coinRetry = await api(server, setup.coin.session, 'POST', '/api/payment/makePayment', {
      method: 'crypto',
      idempotency_key: coinKey,
    });
    expect(((await coinRetry.json()) as { data: unknown }).data).toMatchObject({
      status: 'paid',
      balance: LOAD - PRICE,
      position: 1,
    });
    await stopServer(server);

    // What is in the database, with no server running.
    await withDatabase(async ({ ctx }) => {
      expect(await money.ledgerProblems(ctx.db)).toEqual([]);
      for (const user of [setup.card.id, setup.coin.id]) {
        expect(await money.balanceOf(ctx, user)).toBe(LOAD - PRICE);
        const userPayments = await ctx.db.select().from(payments).where(eq(payments.userId, user));
        expect(userPayments.map((p) => [p.status, p.amount])).toEqual([['succeeded', LOAD]]);
        const [loads] = await ctx.db
          .select({ n: count() })
          .from(ledgerTransactions)
          .where(and(eq(ledgerTransactions.userId, user), eq(ledgerTransactions.kind, 'load')));
        expect(loads.n).toBe(1);
        const userOrders = await ctx.db.select().from(orders).where(eq(orders.userId, user));
        expect(userOrders.map((o) => o.status)).toEqual(['paid']);
      }
      // The acquirer charged once: our retries reached it with the same key.
      const [charges] = await ctx.db
        .select({ n: count() })
        .from(sandboxCharges)
        .where(like(sandboxCharges.idempotencyKey, 'pay_%'));
      expect(charges.n).toBe(1);
    });
  });

  it('a refund the provider made while the process died is booked once by the same key after the restart', async () => {
    const btcpay = await startBtcpayStandIn();
    const proxy = await startCutProxy(btcpay.url);
    const env = {
      CRYPTO_PROVIDER: 'btcpay',
      BTCPAY_URL: proxy.url,
      BTCPAY_STORE_ID: btcpay.storeId,
      BTCPAY_API_KEY: btcpay.apiKey,
      BTCPAY_WEBHOOK_SECRET: btcpay.webhookSecret,
    };
    try {
      const setup = await withDatabase(async ({ ctx }) => {
        await seedGeo(ctx);
        const past = new Date(Date.now() - 86_400_000);
        const coin = (await createAdvertiser(ctx, { bumpedAt: past })).account.id;
        const admin = (await createAdvertiser(ctx, { role: 'admin' })).account.id;
        return { coin, session: await createSession(ctx, coin), admin: await createSession(ctx, admin) };
      });
      let server = await startServer(undefined, env);
      const paid = await api(server, setup.session, 'POST', '/api/payment/makePayment', {
        method: 'crypto',
        purpose: 'load',
        amount: 2000,
        idempotency_key: crypto.randomUUID(),
      });
      const paymentId = ((await paid.json()) as { data: { payment: { id: number } } }).data.payment.id;
      const invoice = [...btcpay.invoices.values()].find((i) => i.metadata.orderId === `pay_${paymentId}`)!;
      btcpay.pay(invoice.id);
      const hook = btcpay.webhook('InvoiceSettled', invoice.id);
      const settled = await httpClient(server.base)('POST', '/api/payment/webhook/btcpay', {
        raw: hook.body,
        headers: hook.headers,
      });
      // Credited by this notification, or by the settlement's first poll after the start just before it.
      expect(['credited', 'unchanged']).toContain((settled.json() as { outcome: string }).outcome);
      const balance = await api(server, setup.session, 'GET', '/api/payment/getData');
      expect((balance.json() as { data: { balance: number } }).data.balance).toBe(2000);

      // BTCPay makes the refund; before its answer reaches us the process dies (SIGKILL).
      const body = { payment_id: paymentId, amount: 700, reason: 'crash', idempotency_key: crypto.randomUUID() };
      const made = proxy.cutNext('POST', /\/refund$/, 'hold');
      const asked = api(server, setup.admin, 'POST', '/api/admin/refundLoad', body).catch((err: Error) => err);
      await made;
      child!.kill('SIGKILL');
      expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
      expect(await asked).toBeInstanceOf(Error);
      expect(btcpay.pullPayments.filter((p) => p.invoiceId === invoice.id)).toHaveLength(1);

      // Restarted: the same key finds BTCPay's refund by its name and books it, once.
      server = await startServer(undefined, env);
      const again = await api(server, setup.admin, 'POST', '/api/admin/refundLoad', body);
      expect(again.status).toBe(200);
      expect(((await again.json()) as { data: unknown }).data).toMatchObject({
        refunded: 700,
        balance: 1300,
        duplicate: false,
      });
      await stopServer(server);
      expect(btcpay.pullPayments.filter((p) => p.invoiceId === invoice.id)).toHaveLength(1);

      await withDatabase(async ({ ctx }) => {
        const [intent] = await ctx.db.select().from(refundIntents).where(eq(refundIntents.paymentId, paymentId));
        expect(intent).toMatchObject({ status: 'booked', amount: 700 });
        const refunds = await ctx.db
          .select()
          .from(ledgerTransactions)
          .where(and(eq(ledgerTransactions.paymentId, paymentId), eq(ledgerTransactions.kind, 'refund')));
        expect(refunds).toHaveLength(1);
        const pulled = btcpay.pullPayments.map((p) => ({
          provider: 'btcpay',
          ref: p.invoiceId,
          amount: Math.round(Number(p.amount) * 100),
        }));
        expect(await moneyProblems(ctx.db, { providerRefunds: pulled })).toEqual([]);
      });
    } finally {
      await proxy.close();
      await btcpay.close();
    }
  });
});
