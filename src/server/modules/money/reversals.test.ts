// Refunds, chargebacks and held accounts (issue 26 item 3, decision 0423), on PGlite and PostgreSQL: a
// sale, a refund through the provider's API, a partial refund, a refund recorded by hand, a chargeback
// after the credits were spent; each its own ledger transaction, booked once, never beyond the load. A
// reversal that takes the balance below zero, and any chargeback, holds the account: it cannot spend (from
// its balance, by card, by auto-topup), she is told in her language, the admin's queue shows it, and it is
// released only when the balance is back at zero or above. The money invariants hold after every test.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  accounts,
  auditLog,
  jobs,
  ledgerAccounts,
  ledgerTransactions,
  paymentEvents,
  payments,
  refundIntents,
  reversalFlags,
  sandboxRefunds,
} from '../../db/schema';
import { runDueJobs } from '../../lib/jobs';
import { injectClient } from '../../test/api-client';
import { as } from '../../test/as';
import { createAdvertiser, createSession, seedGeo, type Session } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { fundedAdvertiser, moneyProblems, sandboxToken } from '../../test/money';
import * as sandbox from '../sandbox-acquirer/sandbox-acquirer.service';
import { onPause } from './fault';
import * as money from './money.service';
import { msg } from '#shared/api/messages.ts';
import { AppError } from '../../lib/errors';

let t: TestApp;
let admin: number;
let adminSession: Session;
const PRICE = 500;

beforeAll(async () => {
  t = await createTestApp({ PRICE_STANDARD_TOPUP: String(PRICE), MIN_TOPUP: '1000' });
  await seedGeo(t.ctx);
  admin = (await createAdvertiser(t.ctx, { role: 'admin' })).account.id;
  adminSession = await createSession(t.ctx, admin);
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await moneyProblems(t.ctx.db)).toEqual([]);
});

const key = () => crypto.randomUUID();

/** A listed advertiser with a card load of `amount` (sandbox 4242, credited at once) and its payment id. */
async function cardLoad(amount: number) {
  const a = await fundedAdvertiser(t.ctx, admin, 0);
  const card_token = await sandboxToken(injectClient(t.app), '4242 4242 4242 4242');
  const res = await as(t, a.session).post('/api/payment/makePayment', {
    method: 'card',
    purpose: 'load',
    amount,
    idempotency_key: key(),
    card_token,
  });
  expect(res.json().data).toMatchObject({ status: 'loaded', payment: { status: 'succeeded' } });
  return { ...a, paymentId: res.json().data.payment.id as number };
}
type Load = Awaited<ReturnType<typeof cardLoad>>;

/** She buys one standard top-up from her balance. */
async function buyTopup(a: { session: Session }) {
  await as(t, a.session).post('/api/payment/addToCart', { uid: 'standard_topup' });
  return as(t, a.session).post('/api/payment/makePayment', { method: 'balance', idempotency_key: key() });
}

const refund = (body: object) => as(t, adminSession).post('/api/admin/refundLoad', body);
const ledgerRows = async () => (await t.ctx.db.select({ n: count() }).from(ledgerTransactions))[0].n;

/** The sandbox acquirer's signed chargeback of `chargeId`, delivered to our webhook as it would be. */
async function chargeback(chargeId: string, amount?: number, tamper = false) {
  const n = await sandbox.chargebackNotification(t.ctx, chargeId, amount);
  const deliver = () =>
    as(t).post('/api/payment/webhook/sandbox', n.body, {
      headers: {
        'content-type': 'application/json',
        // Tampered: its last hex digit changed (to another one, whatever it was).
        [sandbox.SANDBOX_SIGNATURE_HEADER]: tamper
          ? n.signature.replace(/.$/, (c) => (c === '0' ? '1' : '0'))
          : n.signature,
      },
    });
  return { first: await deliver(), deliver };
}

const chargeOf = async (paymentId: number) =>
  (await t.ctx.db.select().from(payments).where(eq(payments.id, paymentId)))[0].providerRef!;

describe('refunds by the admin', () => {
  it('a sale, a partial refund through the provider, the same key again, too much, then the rest', async () => {
    const a = await cardLoad(2000);
    const look = await as(t, adminSession).get(`/api/admin/loads/${a.paymentId}`);
    expect(look.json().data).toMatchObject({
      payment_id: a.paymentId,
      user_id: a.id,
      method: 'card',
      provider: 'sandbox',
      amount: 2000,
      reversed: 0,
      refundable: 2000,
      via: 'provider',
    });

    const body = { payment_id: a.paymentId, amount: 500, reason: 'asked by the advertiser', idempotency_key: key() };
    const first = await refund(body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({
      balance: 1500,
      refunded: 500,
      refundable: 1500,
      held: false,
      duplicate: false,
    });
    // Through the sandbox's refund API, once.
    const ref = await chargeOf(a.paymentId);
    const refunds = await t.ctx.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentRef, ref));
    expect(refunds.map((r) => r.amount)).toEqual([500]);

    // A double click: the same answer, nothing more at the provider or in the ledger.
    const before = await ledgerRows();
    expect((await refund(body)).json().data).toMatchObject({ balance: 1500, refunded: 500, duplicate: true });
    expect(await ledgerRows()).toBe(before);
    expect(await t.ctx.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentRef, ref))).toHaveLength(1);

    // More than is left: 422, nothing changes.
    const tooMuch = await refund({ ...body, amount: 1501, idempotency_key: key() });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().errors.amount).toBeTruthy();
    expect(await ledgerRows()).toBe(before);

    // The rest (no amount: all that is left).
    const rest = await refund({ payment_id: a.paymentId, reason: 'closing the account', idempotency_key: key() });
    expect(rest.json().data).toMatchObject({ balance: 0, refunded: 2000, refundable: 0, held: false });
    expect((await refund({ ...body, amount: 1, idempotency_key: key() })).statusCode).toBe(422);

    // Her statement shows the load and two refunds; the audit log has both.
    const statement = await as(t, a.session).post('/api/payment/getTransactions?page=1', { user_id: a.id });
    expect(statement.json().data.map((r: { kind: string; amount: number }) => [r.kind, r.amount])).toEqual([
      ['refund', -1500],
      ['refund', -500],
      ['load', 2000],
    ]);
    const audits = await t.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'money.refund'));
    expect(audits.filter((r) => r.targetUserId === a.id)).toHaveLength(2);
  });

  it('a crypto load is refunded through the provider, a bank transfer by hand', async () => {
    const a = await fundedAdvertiser(t.ctx, admin, 0);
    const res = await as(t, a.session).post('/api/payment/makePayment', {
      method: 'crypto',
      purpose: 'load',
      amount: 1200,
      idempotency_key: key(),
    });
    const paymentId = res.json().data.payment.id as number;
    await as(t).post(res.json().data.payment.invoice.simulate_url);
    expect(await money.balanceOf(t.ctx, a.id)).toBe(1200);
    expect((await as(t, adminSession).get(`/api/admin/loads/${paymentId}`)).json().data.via).toBe('provider');
    const crypto1 = await refund({ payment_id: paymentId, amount: 200, reason: 'overpaid', idempotency_key: key() });
    expect(crypto1.json().data).toMatchObject({ balance: 1000, refunded: 200 });

    const bank = await as(t, a.session).get(`/api/payment/getBankDetails/${a.id}`);
    const transfer = await as(t, adminSession).post('/api/admin/recordBankTransfer', {
      reference: bank.json().data.reference,
      amount: 3000,
      bank_transaction_id: `bank-${key()}`,
    });
    expect(transfer.statusCode).toBe(200);
    const [bankPayment] = await t.ctx.db.select().from(payments).where(eq(payments.method, 'bank'));
    const bankLoad = (await t.ctx.db.select().from(payments).where(eq(payments.userId, a.id))).find(
      (p) => p.method === 'bank',
    )!;
    expect(bankPayment).toBeTruthy();
    expect((await as(t, adminSession).get(`/api/admin/loads/${bankLoad.id}`)).json().data.via).toBe('hand');
    const body = { payment_id: bankLoad.id, amount: 3000, reason: 'sent back by bank', idempotency_key: key() };
    expect((await refund(body)).json().data).toMatchObject({ balance: 1000, refunded: 3000, duplicate: false });
    expect((await refund(body)).json().data).toMatchObject({ balance: 1000, duplicate: true });
  });

  it('refuses what it should, and changes nothing: unknown or uncredited loads, a card number, a stranger', async () => {
    const a = await cardLoad(1000);
    expect((await as(t, adminSession).get('/api/admin/loads/999999')).statusCode).toBe(404);
    expect(
      (await refund({ payment_id: 999999, amount: 100, reason: 'nothing', idempotency_key: key() })).statusCode,
    ).toBe(404);
    const before = await ledgerRows();
    const card = await refund({
      payment_id: a.paymentId,
      amount: 100,
      reason: 'card 4242 4242 4242 4242 refunded',
      idempotency_key: key(),
    });
    expect(card.statusCode).toBe(422);
    const extra = await refund({
      payment_id: a.paymentId,
      amount: 100,
      reason: 'ok reason',
      idempotency_key: key(),
      x: 1,
    });
    expect(extra.statusCode).toBe(422);
    const stranger = await createSession(t.ctx, (await createAdvertiser(t.ctx)).account.id);
    expect(
      (
        await as(t, stranger).post('/api/admin/refundLoad', {
          payment_id: a.paymentId,
          reason: 'mine',
          idempotency_key: key(),
        })
      ).statusCode,
    ).toBe(403);
    expect((await as(t, a.session).get('/api/admin/heldAccounts')).statusCode).toBe(403);
    expect(await ledgerRows()).toBe(before);
    expect(await money.balanceOf(t.ctx, a.id)).toBe(1000);
  });
});

describe('reversals after the credits were spent', () => {
  /** A card load of 1000 of which she spent 500 on a top-up. */
  async function spent(): Promise<Load> {
    const a = await cardLoad(1000);
    expect((await buyTopup(a)).json().data.status).toBe('paid');
    expect(await money.balanceOf(t.ctx, a.id)).toBe(500);
    return a;
  }

  it('a full refund takes the balance below zero and holds the account; she is told in her language', async () => {
    const a = await spent();
    await t.ctx.db.update(accounts).set({ language: 'de' }).where(eq(accounts.id, a.id));
    const res = await refund({ payment_id: a.paymentId, reason: 'fraud report', idempotency_key: key() });
    expect(res.json().data).toMatchObject({ balance: -500, refunded: 1000, held: true });

    // The admin's queue shows her.
    const queue = await as(t, adminSession).get('/api/admin/heldAccounts');
    expect(queue.json().data).toContainEqual(
      expect.objectContaining({ user_id: a.id, balance: -500, reason: 'negative_balance' }),
    );
    // Her screens know (getData), and her notice reads in the language of her screen.
    expect((await as(t, a.session).get('/api/payment/getData')).json().data.hold).toMatchObject({
      reason: 'negative_balance',
    });
    const notices = await as(t, a.session).get('/api/notices', { headers: { 'x-language': 'de' } });
    expect(notices.json().data[0]).toMatchObject({ kind: 'money_held', title: 'Ihr Konto ist gesperrt' });
    // The mail, in her account's language, queued in the reversal's transaction.
    const queued = await t.ctx.db.select().from(jobs).where(eq(jobs.kind, money.HOLD_MAIL_JOB));
    expect(queued.filter((j) => j.payload.userId === a.id)).toHaveLength(1);
    await runDueJobs(t.ctx, { [money.HOLD_MAIL_JOB]: money.sendHoldMail });
    const outbox = path.join(t.dataDir, 'outbox');
    const [account] = await t.ctx.db.select().from(accounts).where(eq(accounts.id, a.id));
    const mails = fs
      .readdirSync(outbox)
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(fs.readFileSync(path.join(outbox, f), 'utf8')))
      .filter((m) => m.to === account.email);
    expect(mails.map((m) => m.subject)).toContain('Ihr Konto ist gesperrt');

    // Held: nothing can be bought, not from the balance, not by card, not by the auto-topup.
    const byBalance = await buyTopup(a);
    expect(byBalance.statusCode).toBe(422);
    const card_token = await sandboxToken(injectClient(t.app), '4242 4242 4242 4242');
    const byCard = await as(t, a.session).post('/api/payment/makePayment', {
      method: 'card',
      idempotency_key: key(),
      card_token,
    });
    expect(byCard.statusCode).toBe(422);
    await expect(
      money.purchase(t.ctx, {
        userId: a.id,
        productCode: 'standard_topup',
        idempotencyKey: `auto_topup:test:${key()}`,
        source: 'auto_topup',
      }),
    ).rejects.toBeInstanceOf(money.AccountHeld);
    expect(await money.balanceOf(t.ctx, a.id)).toBe(-500);

    // Not released while below zero; she may load credits, and once the debt is paid the admin releases.
    const release = (reason = 'debt paid') =>
      as(t, adminSession).post('/api/admin/releaseHold', { user_id: a.id, reason });
    expect((await release()).statusCode).toBe(422);
    const load = await as(t, a.session).post('/api/payment/makePayment', {
      method: 'card',
      purpose: 'load',
      amount: 1000,
      idempotency_key: key(),
      card_token,
    });
    expect(load.json().data.status).toBe('loaded');
    expect(await money.balanceOf(t.ctx, a.id)).toBe(500);
    expect((await release()).json().data).toEqual({ user_id: a.id, released: true });
    expect((await release()).json().data).toEqual({ user_id: a.id, released: false });
    expect((await as(t, a.session).get('/api/payment/getData')).json().data.hold).toBeNull();
    expect((await buyTopup(a)).json().data.status).toBe('paid');
    expect(await money.balanceOf(t.ctx, a.id)).toBe(0);
  });

  it('a chargeback after the credits were spent is booked once and holds the account; a bad signature writes nothing', async () => {
    const a = await spent();
    const charge = await chargeOf(a.paymentId);
    const before = await ledgerRows();
    const bad = await chargeback(charge, undefined, true);
    expect(bad.first.statusCode).toBe(401);
    expect(await ledgerRows()).toBe(before);

    const cb = await chargeback(charge);
    expect(cb.first.json()).toEqual({ received: true, outcome: 'reversed' });
    expect((await cb.deliver()).json()).toEqual({ received: true, outcome: 'duplicate' });
    expect(await ledgerRows()).toBe(before + 1);
    expect(await money.balanceOf(t.ctx, a.id)).toBe(-500);
    const [booked] = await t.ctx.db
      .select()
      .from(ledgerTransactions)
      .where(sql`${ledgerTransactions.paymentId} = ${a.paymentId} and ${ledgerTransactions.kind} = 'chargeback'`);
    expect(booked).toMatchObject({ userId: a.id, kind: 'chargeback' });
    const queue = (await as(t, adminSession).get('/api/admin/heldAccounts')).json().data;
    expect(queue).toContainEqual(expect.objectContaining({ user_id: a.id, reason: 'chargeback', balance: -500 }));
    expect((await buyTopup(a)).statusCode).toBe(422);
    // Nothing left to refund of that load.
    expect((await as(t, adminSession).get(`/api/admin/loads/${a.paymentId}`)).json().data.refundable).toBe(0);
  });

  it('a chargeback holds even a positive balance; chargebacks beyond the load are recorded, not booked', async () => {
    const a = await cardLoad(2000);
    const charge = await chargeOf(a.paymentId);
    const fits = await chargeback(charge, 200);
    expect(fits.first.json().outcome).toBe('reversed');
    expect(await money.balanceOf(t.ctx, a.id)).toBe(1800);
    expect((await as(t, a.session).get('/api/payment/getData')).json().data.hold).toMatchObject({
      reason: 'chargeback',
    });
    expect((await buyTopup(a)).statusCode).toBe(422);
    // Not below zero: the admin may release it at once.
    const released = await as(t, adminSession).post('/api/admin/releaseHold', { user_id: a.id, reason: 'cleared' });
    expect(released.json().data.released).toBe(true);

    // Chargebacks of more than the sale took in all: no acquirer sends that; recorded, nothing booked.
    const before = await ledgerRows();
    const tooMuch = await chargeback(charge, 1900);
    expect(tooMuch.first.json()).toEqual({ received: true, outcome: 'too_much' });
    const events = await t.ctx.db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, a.paymentId));
    expect(events.map((e) => e.outcome).sort()).toEqual(['reversed', 'too_much']);
    expect(await ledgerRows()).toBe(before);
    expect(await money.balanceOf(t.ctx, a.id)).toBe(1800);
    expect((await buyTopup(a)).json().data.status).toBe('paid');
  });

  it('a refund and a chargeback that together exceed the load are both booked: the excess charged to her, held, flagged', async () => {
    const a = await cardLoad(2000);
    expect(
      (await refund({ payment_id: a.paymentId, amount: 1500, reason: 'partial', idempotency_key: key() })).statusCode,
    ).toBe(200);
    // The bank takes 600 back though only 500 was left: the money is gone, so it is booked.
    const cb = await chargeback(await chargeOf(a.paymentId), 600);
    expect(cb.first.json()).toEqual({ received: true, outcome: 'reversed' });
    expect(await money.balanceOf(t.ctx, a.id)).toBe(-100);
    const [flag] = await t.ctx.db.select().from(reversalFlags).where(eq(reversalFlags.paymentId, a.paymentId));
    expect(flag).toMatchObject({ userId: a.id, excess: 100, resolvedAt: null });
    const [booked] = await t.ctx.db
      .select()
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.id, flag.transactionId));
    expect(booked.kind).toBe('chargeback');
    const held = (await as(t, adminSession).get('/api/admin/heldAccounts')).json().data;
    expect(held).toContainEqual(
      expect.objectContaining({ user_id: a.id, balance: -100, reason: 'chargeback', beyond_load: 100 }),
    );
    expect((await as(t, adminSession).get(`/api/admin/loads/${a.paymentId}`)).json().data).toMatchObject({
      reversed: 2100,
      refundable: 0,
    });
    // Below zero: not released. Settled (the admin credits it back after a word with the acquirer): released,
    // and the flag is marked looked at, in the audit log too.
    const release = () => as(t, adminSession).post('/api/admin/releaseHold', { user_id: a.id, reason: 'disputed' });
    expect((await release()).statusCode).toBe(422);
    await money.adjustBalance(t.ctx, {
      actor: { id: admin },
      userId: a.id,
      amount: 100,
      reason: 'chargeback won back',
      idempotencyKey: key(),
    });
    expect((await release()).json().data.released).toBe(true);
    const [resolved] = await t.ctx.db.select().from(reversalFlags).where(eq(reversalFlags.id, flag.id));
    expect(resolved).toMatchObject({ resolvedBy: admin });
    const audits = await t.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'money.release_hold'));
    expect(audits.find((r) => r.targetUserId === a.id)?.data).toMatchObject({ beyond_load: 100 });
    const after = (await as(t, adminSession).get('/api/admin/heldAccounts')).json().data;
    expect(after.find((h: { user_id: number }) => h.user_id === a.id)).toBeUndefined();
  });

  it('two admins refunding the same load at once never take more than it credited', async () => {
    const a = await cardLoad(1000);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        refund({ payment_id: a.paymentId, amount: 400, reason: 'race', idempotency_key: key() }),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(2);
    expect(answers.every((r) => r.statusCode === 200 || r.statusCode === 422)).toBe(true);
    expect(await money.balanceOf(t.ctx, a.id)).toBe(200);
  });
});

describe('a refund asked twice at once (decision 0423)', () => {
  it('the same key again while the provider is being asked: 503 pending, one refund at the provider, booked once', async () => {
    const a = await cardLoad(1000);
    const charge = await chargeOf(a.paymentId);
    const body = { payment_id: a.paymentId, amount: 300, reason: 'double click', idempotency_key: key() };
    let second: Awaited<ReturnType<typeof refund>> | undefined;
    let first = true;
    const off = onPause('refund_intent_written', async () => {
      if (!first) return;
      first = false;
      // The first call is under way: the same key again (a double click, a client's retry).
      second = await refund(body);
    });
    let res;
    try {
      res = await refund(body);
    } finally {
      off();
    }
    expect(second?.statusCode, second?.body).toBe(503);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ refunded: 300, duplicate: false });
    // Asked again once the first call ended: its outcome, nothing more.
    expect((await refund(body)).json().data).toMatchObject({ refunded: 300, duplicate: true });
    const made = await t.ctx.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentRef, charge));
    expect(made.map((r) => r.amount)).toEqual([300]);
  });
});

describe('a pending refund asked again (decision 0423)', () => {
  it('with another amount is refused (422, nothing asked); with its own it is carried out once', async () => {
    const a = await cardLoad(1000);
    const charge = await chargeOf(a.paymentId);
    const body = { payment_id: a.paymentId, amount: 300, reason: 'unknown outcome', idempotency_key: key() };
    // The first call never reaches the provider, and nobody knows: the intent stays pending.
    const off = onPause('refund_intent_written', async () => {
      throw new AppError(503, 'provider_unavailable', msg('money.refundPending'));
    });
    try {
      expect((await refund(body)).statusCode).toBe(503);
    } finally {
      off();
    }
    const other = await refund({ ...body, amount: 500 });
    expect(other.statusCode, other.body).toBe(422);
    expect(other.json().errors.amount[0]).toMatch(/another amount/);
    const again = await refund(body);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toMatchObject({ refunded: 300 });
    const made = await t.ctx.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentRef, charge));
    expect(made.map((r) => r.amount)).toEqual([300]);
  });
});

describe('a refund racing a chargeback (decision 0423)', () => {
  it('the intent is written before the provider is asked: what is booked meanwhile sees it, and the refund made is booked', async () => {
    const a = await cardLoad(1000);
    const charge = await chargeOf(a.paymentId);
    const meanwhile: unknown[] = [];
    let first = true;
    // Between the intent's transaction and the provider's refund: another admin and the bank act.
    const off = onPause('refund_intent_written', async () => {
      if (!first) return;
      first = false;
      meanwhile.push((await as(t, adminSession).get(`/api/admin/loads/${a.paymentId}`)).json().data);
      const second = await refund({ payment_id: a.paymentId, amount: 500, reason: 'second', idempotency_key: key() });
      meanwhile.push(second.statusCode);
      meanwhile.push((await chargeback(charge, 600)).first.json());
    });
    const body = { payment_id: a.paymentId, amount: 600, reason: 'asked back', idempotency_key: key() };
    let res;
    try {
      res = await refund(body);
    } finally {
      off();
    }
    // The 600 asked of the provider was no longer refundable for the second admin; the chargeback booked.
    expect(meanwhile).toEqual([
      expect.objectContaining({ amount: 1000, reversed: 0, refundable: 400 }),
      422,
      { received: true, outcome: 'reversed' },
    ]);
    // The refund the provider made is booked too: 1,200 back to the card holder, 1,200 in the ledger, the
    // 200 beyond the load charged to her and flagged, the account held.
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      refunded: 1200,
      refundable: 0,
      balance: -200,
      held: true,
      duplicate: false,
    });
    const made = await t.ctx.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentRef, charge));
    expect(made.map((r) => r.amount)).toEqual([600]);
    const booked = await t.ctx.db
      .select({ id: ledgerTransactions.id, kind: ledgerTransactions.kind })
      .from(ledgerTransactions)
      .where(sql`${ledgerTransactions.paymentId} = ${a.paymentId} and ${ledgerTransactions.kind} <> 'load'`);
    expect(booked.map((b) => b.kind).sort()).toEqual(['chargeback', 'refund']);
    const flags = await t.ctx.db.select().from(reversalFlags).where(eq(reversalFlags.paymentId, a.paymentId));
    expect(flags).toEqual([
      expect.objectContaining({ excess: 200, transactionId: booked.find((b) => b.kind === 'refund')!.id }),
    ]);
    const [intent] = await t.ctx.db.select().from(refundIntents).where(eq(refundIntents.paymentId, a.paymentId));
    expect(intent).toMatchObject({ status: 'booked', amount: 600 });
    const held = (await as(t, adminSession).get('/api/admin/heldAccounts')).json().data;
    expect(held).toContainEqual(
      expect.objectContaining({ user_id: a.id, balance: -200, reason: 'chargeback', beyond_load: 200 }),
    );
    // The same key again: the same refund, nothing more at the provider or in the ledger.
    const rows = await ledgerRows();
    expect((await refund(body)).json().data).toMatchObject({ refunded: 1200, balance: -200, duplicate: true });
    expect(await ledgerRows()).toBe(rows);
    expect(await t.ctx.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentRef, charge))).toHaveLength(1);
  });
});

describe('releasing a hold', () => {
  it('of an account that does not exist is 404 and writes nothing; of one never held, nothing either', async () => {
    const counts = async () => ({
      ledger: (await t.ctx.db.select({ n: count() }).from(ledgerAccounts))[0].n,
      audit: (await t.ctx.db.select({ n: count() }).from(auditLog))[0].n,
    });
    const before = await counts();
    const nobody = await as(t, adminSession).post('/api/admin/releaseHold', { user_id: 99_999_999, reason: 'nobody' });
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json()).toMatchObject({ message: 'This account does not exist.' });
    expect(await counts()).toEqual(before);
    // An advertiser without a ledger account: not held, and none is made for her.
    const b = (await createAdvertiser(t.ctx)).account.id;
    const never = await as(t, adminSession).post('/api/admin/releaseHold', { user_id: b, reason: 'nothing held' });
    expect(never.json().data).toEqual({ user_id: b, released: false });
    expect(await counts()).toEqual(before);
  });
});

describe('the ledger itself', () => {
  it('refuses an entry that takes a user below zero unless it is a reversal (the trigger, below the code)', async () => {
    const a = await cardLoad(1000);
    const [{ id: accountId }] = await t.ctx.db
      .execute<{ id: number }>(sql`select id from ledger_accounts where kind = 'user' and user_id = ${a.id}`)
      .then((r) => (r as unknown as { rows: Array<{ id: number }> }).rows);
    const attempt = (kind: string) =>
      t.ctx.db.transaction(async (tx) => {
        const [txn] = (
          (await tx.execute(sql`insert into ledger_transactions (kind, idempotency_key, user_id, created_at)
            values (${kind}, ${`probe:${key()}`}, ${a.id}, now()) returning id`)) as unknown as {
            rows: Array<{ id: number }>;
          }
        ).rows;
        await tx.execute(sql`insert into ledger_entries (transaction_id, ledger_account_id, amount, balance_after, created_at)
          values (${txn.id}, ${accountId}, -2000, -1000, now())`);
        throw new Error('rolled back on purpose');
      });
    const refused = (await attempt('adjustment').catch((e: Error & { cause?: Error }) => e)) as Error & {
      cause?: Error;
    };
    expect(String(refused.cause?.message ?? refused.message)).toMatch(/below zero only through a reversal/);
    await expect(attempt('refund')).rejects.toThrow(/rolled back on purpose/);
    // And the account row refuses a negative balance unless it is held.
    await expect(
      t.ctx.db.execute(sql`update ledger_accounts set balance = -1 where id = ${accountId}`),
    ).rejects.toThrow();
  });
});
