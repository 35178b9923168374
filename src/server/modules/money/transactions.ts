// The account's statement (/transactions/{userID}): one row per ledger entry of the user's account,
// newest first, with what it was and the balance it left. Admins read anyone's, advertisers their own.
import { TRANSACTIONS_PAGE_SIZE, type Transaction, type TransactionsPage } from '#shared/schemas/money.ts';
import type { AppContext } from '../../context';
import * as policy from '../../policies';
import { balanceOf } from './ledger';
import { statementCount, statementRows } from './ledger.repo';
import { minorDigits } from './providers/btcpay';

/** The owner and admins read a statement (src/server/policies: money, read); anyone else gets 403. */
export const assertMayRead = (viewer: policy.Actor, userId: number) =>
  policy.authorize(viewer, 'read', policy.money(userId));

async function rows(ctx: AppContext, userId: number, limit: number, offset: number): Promise<Transaction[]> {
  const found = await statementRows(ctx.db, userId, limit, offset);
  return found.map((r) => ({
    id: Number(r.id),
    date: r.createdAt.toISOString(),
    kind: r.kind,
    amount: Number(r.amount),
    balance_after: Number(r.balanceAfter),
    reference: referenceOf(r),
    products: (r.items ?? []).map((i) => i.productCode),
    method: r.method ?? null,
    // Only a load has a payment and only a credited one has a ledger row: that row is its receipt.
    receipt_id: r.kind === 'load' && r.paymentId ? r.paymentId : null,
  }));
}

function referenceOf(r: {
  kind: string;
  memo: string | null;
  orderId: number | null;
  paymentId: number | null;
  method: string | null;
  providerRef: string | null;
  details: Record<string, unknown> | null;
}): string {
  if (r.orderId) return `ORD-${r.orderId}`;
  if (r.paymentId) {
    const pay = `PAY-${r.paymentId}`;
    if (r.method === 'card' && r.details?.last4) return `${pay} card •••• ${String(r.details.last4)}`;
    if (r.method === 'bank') return `${pay} bank ${r.providerRef ?? ''}`.trim();
    return `${pay} ${r.method ?? ''}`.trim();
  }
  return r.memo ?? '';
}

export async function listTransactions(
  ctx: AppContext,
  viewer: policy.Actor,
  userId: number,
  page: number,
): Promise<TransactionsPage> {
  assertMayRead(viewer, userId);
  const offset = (page - 1) * TRANSACTIONS_PAGE_SIZE;
  const [data, n, balance] = await Promise.all([
    rows(ctx, userId, TRANSACTIONS_PAGE_SIZE, offset),
    statementCount(ctx.db, userId),
    balanceOf(ctx.db, userId),
  ]);
  return {
    data,
    page,
    has_more: offset + data.length < n,
    total: n,
    balance,
    currency: ctx.env.SITE_CURRENCY,
  };
}

/** At most this many rows in one download (years of activity for any real advertiser). */
const CSV_MAX_ROWS = 100_000;

/** A spreadsheet must not run what a text field says (CSV injection): such a field starts with a quote. */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export async function transactionsCsv(ctx: AppContext, viewer: policy.Actor, userId: number) {
  assertMayRead(viewer, userId);
  const currency = ctx.env.SITE_CURRENCY;
  const digits = minorDigits(currency);
  const major = (minor: number) => (minor / 10 ** digits).toFixed(digits);
  const lines = ['date,kind,amount,balance_after,currency,reference,products,method'];
  for (const t of await rows(ctx, userId, CSV_MAX_ROWS, 0)) {
    lines.push(
      [
        t.date,
        t.kind,
        major(t.amount),
        major(t.balance_after),
        currency,
        csvField(t.reference),
        csvField(t.products.join(' ')),
        t.method ?? '',
      ].join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
