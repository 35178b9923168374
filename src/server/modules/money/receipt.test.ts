// Receipts of credited loads (issue 26 item 5, decision 0422): the owner and admins read a load's receipt
// with its number, date, amount, method and the seller's details from configuration, in the reader's
// language; another advertiser finds nothing; a payment that credited nothing has none.
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accounts, payments } from '../../db/schema';
import { injectClient } from '../../test/api-client';
import { as } from '../../test/as';
import { createAdvertiser, createSession, seedGeo, type Session } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { fundedAdvertiser, sandboxToken } from '../../test/money';
import * as money from './money.service';
import { businessDetails, receiptNumber, renderReceipt } from './receipt';

let t: TestApp;
let admin: number;
let adminSession: Session;

beforeAll(async () => {
  t = await createTestApp({
    MIN_TOPUP: '1000',
    BUSINESS_NAME: 'Acme Listings Ltd',
    BUSINESS_ADDRESS: '1 High Street | Leeds LS1 1AA',
    BUSINESS_VAT_ID: 'GB123456789',
    BUSINESS_EMAIL: 'billing@acme.example',
  });
  await seedGeo(t.ctx);
  admin = (await createAdvertiser(t.ctx, { role: 'admin' })).account.id;
  adminSession = await createSession(t.ctx, admin);
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await money.ledgerProblems(t.ctx.db)).toEqual([]);
});

const key = () => crypto.randomUUID();

/** A card load of `amount` with 4242, credited at once: the advertiser, her session and the payment id. */
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
  const [{ username }] = await t.ctx.db.select().from(accounts).where(eq(accounts.id, a.id));
  return { ...a, username, paymentId: res.json().data.payment.id as number };
}

/** The text of the element with this test id on a receipt page. */
const field = (html: string, id: string) =>
  new RegExp(`data-testid="receipt-${id}"[^>]*>([\\s\\S]*?)</(?:dd|p|strong)>`).exec(html)?.[1].trim();

describe('receipts of credited loads', () => {
  it('the owner reads number, date, amount, method, her name and the business details; nothing of the card but its last 4', async () => {
    const load = await cardLoad(2500);
    const [payment] = await t.ctx.db.select().from(payments).where(eq(payments.id, load.paymentId));
    const res = await as(t, load.session).get(`/api/payment/receipt/${load.paymentId}?lang=en`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toContain('no-store');
    const html = res.body;
    const number = receiptNumber(load.paymentId, payment.settledAt!);
    expect(number).toMatch(/^R-\d{4}-\d{6,}$/);
    expect(field(html, 'number')).toBe(`Receipt number: ${number}`);
    expect(field(html, 'amount')).toContain('€25.00');
    expect(field(html, 'method')).toBe('Card · card ending 4242');
    expect(field(html, 'customer')).toBe(load.username);
    expect(field(html, 'date')).toContain(String(payment.settledAt!.getUTCFullYear()));
    expect(field(html, 'business-name')).toBe('Acme Listings Ltd');
    expect(html).toContain('<p>1 High Street</p><p>Leeds LS1 1AA</p>');
    expect(field(html, 'vat-id')).toBe('VAT ID: GB123456789');
    expect(html).toContain('billing@acme.example');
    expect(html).not.toMatch(/4242\s*4242|424242/);
    // Its own CSP: only the page's nonce'd style and script run, nobody frames it.
    const csp = String(res.headers['content-security-policy']);
    const styleNonce = /<style nonce="([0-9a-f]+)"/.exec(html)?.[1];
    const scriptNonce = /<script nonce="([0-9a-f]+)"/.exec(html)?.[1];
    expect(csp).toContain(`style-src 'nonce-${styleNonce}'`);
    expect(csp).toContain(`script-src 'nonce-${scriptNonce}'`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-frame-options']).toBeDefined();
    // The same number however often it is read; the download is the same page as a file.
    const download = await as(t, load.session).get(`/api/payment/receipt/${load.paymentId}?lang=en&download=1`);
    expect(download.headers['content-disposition']).toBe(`attachment; filename="receipt-${number}.html"`);
    expect(field(download.body, 'number')).toBe(`Receipt number: ${number}`);
  });

  it('the statement links each credited load to its receipt, and nothing else', async () => {
    const load = await cardLoad(1000);
    const list = await as(t, load.session).post('/api/payment/getTransactions', { user_id: load.id });
    const rows = list.json().data as Array<{ kind: string; receipt_id: number | null }>;
    expect(rows.map((r) => [r.kind, r.receipt_id])).toEqual([['load', load.paymentId]]);
    await money.purchase(t.ctx, {
      userId: load.id,
      productCode: 'standard_topup',
      idempotencyKey: key(),
      source: 'checkout',
    });
    const after = await as(t, load.session).post('/api/payment/getTransactions', { user_id: load.id });
    expect((after.json().data as Array<{ receipt_id: number | null }>).map((r) => r.receipt_id)).toEqual([
      null,
      load.paymentId,
    ]);
  });

  it('another advertiser and a visitor are refused; an admin reads it; a stray query is a 422', async () => {
    const load = await cardLoad(1000);
    const other = await fundedAdvertiser(t.ctx, admin, 0);
    const url = `/api/payment/receipt/${load.paymentId}`;
    const stranger = await as(t, other.session).get(url);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.body).not.toContain('R-');
    expect((await as(t).get(url)).statusCode).toBe(401);
    const asAdmin = await as(t, adminSession).get(url);
    expect(asAdmin.statusCode).toBe(200);
    expect(field(asAdmin.body, 'customer')).toBe(load.username);
    const stray = await as(t, load.session).get(`${url}?user_id=${other.id}`);
    expect(stray.statusCode).toBe(422);
    expect(stray.json().errors).toBeDefined();
    expect((await as(t, load.session).get(`${url}?lang=fr`)).statusCode).toBe(422);
  });

  it('a payment that credited nothing has no receipt: an unpaid crypto invoice, a confirmation step left open, a failed one', async () => {
    const a = await fundedAdvertiser(t.ctx, admin, 0);
    const invoice = await as(t, a.session).post('/api/payment/makePayment', {
      method: 'crypto',
      purpose: 'load',
      idempotency_key: key(),
    });
    expect(invoice.json().data.status).toBe('pending');
    const card_token = await sandboxToken(injectClient(t.app), '4000000000003220');
    const open = await as(t, a.session).post('/api/payment/makePayment', {
      method: 'card',
      purpose: 'load',
      idempotency_key: key(),
      card_token,
    });
    expect(open.json().data.status).toBe('requires_action');
    for (const id of [invoice.json().data.payment.id, open.json().data.payment.id]) {
      expect((await as(t, a.session).get(`/api/payment/receipt/${id}`)).statusCode).toBe(404);
      expect((await as(t, adminSession).get(`/api/payment/receipt/${id}`)).statusCode).toBe(404);
    }
    // The ledger's credit makes the receipt, not the status alone; a failed payment has none either.
    const openId = open.json().data.payment.id as number;
    for (const status of ['succeeded', 'failed'] as const) {
      await t.ctx.db.update(payments).set({ status }).where(eq(payments.id, openId));
      expect((await as(t, a.session).get(`/api/payment/receipt/${openId}`)).statusCode).toBe(404);
    }
    const list = await as(t, a.session).post('/api/payment/getTransactions', { user_id: a.id });
    expect(list.json().data).toEqual([]);
  });

  it('is in German for a German reader, and a bank transfer shows its reference', async () => {
    const load = await cardLoad(2500);
    const de = await as(t, load.session).get(`/api/payment/receipt/${load.paymentId}?lang=de`);
    expect(de.statusCode).toBe(200);
    expect(de.body).toContain('<html lang="de">');
    expect(de.body).toContain('<h1>Zahlungsbeleg</h1>');
    expect(field(de.body, 'number')).toMatch(/^Belegnummer: R-\d{4}-\d{6,}$/);
    expect(field(de.body, 'amount')).toContain('25,00\u00a0€');
    expect(field(de.body, 'method')).toBe('Karte · Karte mit Endziffern 4242');
    expect(field(de.body, 'vat-id')).toBe('USt-IdNr.: GB123456789');
    expect(de.body).toContain('Drucken oder als PDF speichern');

    const b = await fundedAdvertiser(t.ctx, admin, 0);
    const reference = (await as(t, b.session).get(`/api/payment/getBankDetails/${b.id}`)).json().data
      .reference as string;
    await as(t, adminSession).post('/api/admin/recordBankTransfer', {
      reference,
      amount: 5000,
      bank_transaction_id: `bank-${key()}`,
    });
    const list = await as(t, b.session).post('/api/payment/getTransactions', { user_id: b.id });
    const [row] = list.json().data as Array<{ receipt_id: number }>;
    const bank = await as(t, b.session).get(`/api/payment/receipt/${row.receipt_id}?lang=es`);
    expect(bank.statusCode).toBe(200);
    expect(field(bank.body, 'method')).toBe('Transferencia');
    expect(field(bank.body, 'reference')).toBe(reference);
    expect(field(bank.body, 'amount')).toContain('50,00');
  });

  it('without BUSINESS_NAME names the site, and leaves off what is not configured', async () => {
    const load = await cardLoad(1000);
    const receipt = await money.receiptOf(t.ctx, { id: load.id, role: 'advertiser' }, load.paymentId);
    const bare = businessDetails({
      ...t.ctx.env,
      BUSINESS_NAME: undefined,
      BUSINESS_ADDRESS: undefined,
      BUSINESS_VAT_ID: undefined,
      BUSINESS_EMAIL: undefined,
    });
    const html = renderReceipt(receipt, bare, 'en', { script: 'a', style: 'b' });
    expect(field(html, 'business-name')).toBe('Companion Directory');
    expect(/data-testid="receipt-seller">([\s\S]*?)<\/div>/.exec(html)?.[1]).toBe(
      '<p><strong data-testid="receipt-business-name">Companion Directory</strong></p>',
    );
    expect(html).not.toContain('VAT ID');
    expect(field(html, 'date')).toMatch(/ UTC$/);
  });
});
