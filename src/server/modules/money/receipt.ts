// Receipts of credited loads (issue 26 item 5, decision 0422): GET /api/payment/receipt/{paymentId} shows
// a self-contained, printable page in the reader's language; the browser's "Save as PDF" is the PDF. Only
// a load the ledger credited has one; the owner and admins read it, anyone else finds nothing there.
import { msg } from '#shared/api/messages.ts';
import type { Language } from '#shared/constants.ts';
import type { LoadMethod } from '#shared/schemas/money.ts';
import { intlLocale } from '#shared/views/format.ts';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/errors';
import { escapeHtml } from '../../lib/html';
import { translator } from '../../lib/i18n';
import * as policy from '../../policies';
import { creditedLoad } from './receipt.repo';

export interface Receipt {
  number: string;
  paymentId: number;
  userId: number;
  username: string;
  creditedAt: Date;
  amount: number;
  currency: string;
  method: LoadMethod;
  provider: string;
  /** The card's last four digits (all a payment ever keeps of a card), or null. */
  last4: string | null;
  /** The provider's or the bank transfer's reference, or null. */
  reference: string | null;
}

export interface BusinessDetails {
  /** Null: the site's name in the reader's language. */
  name: string | null;
  address: string[];
  vatId: string | null;
  email: string | null;
}

/**
 * R-<year credited>-<payment id, six digits at least>: derived, so it never changes and needs no table of
 * its own; numbers rise with time, with gaps where payments failed (decision 0422).
 */
export const receiptNumber = (paymentId: number, creditedAt: Date) =>
  `R-${creditedAt.getUTCFullYear()}-${String(paymentId).padStart(6, '0')}`;

/** The receipt, or 404 alike for a missing payment, an uncredited one and someone else's. */
export async function receiptOf(ctx: AppContext, viewer: policy.Actor, paymentId: number): Promise<Receipt> {
  const row = await creditedLoad(ctx.db, paymentId);
  if (!row || row.status !== 'succeeded' || !policy.can(viewer, 'read', policy.money(row.userId)))
    throw notFound(msg('money.paymentNotFound'));
  const last4 = typeof row.details.last4 === 'string' ? row.details.last4.slice(-4) : null;
  return {
    number: receiptNumber(row.paymentId, row.creditedAt),
    paymentId: row.paymentId,
    userId: row.userId,
    username: row.username,
    creditedAt: row.creditedAt,
    amount: row.amount,
    currency: row.currency,
    method: row.method,
    provider: row.provider,
    last4,
    // A transfer shows the reference its payer wrote on it; a crypto load its invoice.
    reference:
      row.method === 'bank' && typeof row.details.reference === 'string' ? row.details.reference : row.providerRef,
  };
}

export function businessDetails(env: AppContext['env']): BusinessDetails {
  return {
    name: env.BUSINESS_NAME?.trim() || null,
    address: (env.BUSINESS_ADDRESS ?? '')
      .split(/\s*(?:\||\n)\s*/)
      .map((l) => l.trim())
      .filter(Boolean),
    vatId: env.BUSINESS_VAT_ID?.trim() || null,
    email: env.BUSINESS_EMAIL?.trim() || null,
  };
}

const STYLE = `*{box-sizing:border-box}body{font-family:system-ui,sans-serif;color:#111;margin:0;padding:1rem;line-height:1.45}
main{max-width:40rem;margin:0 auto}
.top{display:flex;flex-wrap:wrap;justify-content:space-between;gap:1rem;border-bottom:2px solid #111;padding-bottom:.8rem}
h1{font-size:1.5rem;margin:0 0 .2rem}.seller p,.top p{margin:0}
dl{display:grid;grid-template-columns:minmax(8rem,auto) 1fr;gap:.4rem 1rem;margin:1.2rem 0}
dt{color:#555}dd{margin:0;overflow-wrap:anywhere}
.total{font-size:1.4rem;font-weight:700}
.paid{display:inline-block;border:2px solid #166534;color:#166534;border-radius:.3rem;padding:.1rem .5rem;font-weight:700}
.actions{display:flex;flex-wrap:wrap;gap:.6rem;margin-top:1.5rem}
.actions a,.actions button{font:inherit;font-size:1rem;padding:.6rem 1rem;border-radius:.4rem;border:1px solid #888;background:#fff;color:#111;text-decoration:none;cursor:pointer}
.actions button{background:#166534;color:#fff;border-color:#166534}
@media (max-width:30rem){dl{grid-template-columns:1fr;gap:.1rem}dd{margin-bottom:.5rem}}
@media print{body{padding:0}.actions{display:none}@page{margin:18mm}}`;

export function formatAmount(lang: Language, amount: number, currency: string) {
  const format = new Intl.NumberFormat(intlLocale(lang), { style: 'currency', currency });
  return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

/** The page: the seller, the receipt's facts, and print / download / back for the screen only. */
export function renderReceipt(
  r: Receipt,
  business: BusinessDetails,
  lang: Language,
  nonce: { script: string; style: string },
): string {
  const tr = translator(lang, 'money');
  const t = (key: string, params?: Record<string, unknown>) => escapeHtml(tr(key, params));
  const e = escapeHtml;
  const date = `${new Intl.DateTimeFormat(intlLocale(lang), {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(r.creditedAt)} UTC`;
  const method = [tr(`methods.${r.method}`), r.last4 ? tr('receipt.cardEnding', { last4: r.last4 }) : '']
    .filter(Boolean)
    .join(' · ');
  const row = (key: string, value: string, id: string) =>
    `<dt>${t(key)}</dt><dd data-testid="receipt-${id}">${value}</dd>`;
  const seller = [
    `<p><strong data-testid="receipt-business-name">${e(business.name ?? tr('common:siteName'))}</strong></p>`,
    ...business.address.map((l) => `<p>${e(l)}</p>`),
    business.vatId ? `<p data-testid="receipt-vat-id">${t('receipt.vatId')}: ${e(business.vatId)}</p>` : '',
    business.email ? `<p>${e(business.email)}</p>` : '',
  ].join('');
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<link rel="icon" href="data:,"><title>${t('receipt.title', { number: r.number })}</title>
<style nonce="${nonce.style}">${STYLE}</style></head><body>
<main data-testid="receipt" data-number="${e(r.number)}">
<div class="top"><div><h1>${t('receipt.heading')}</h1><p data-testid="receipt-number">${t('receipt.number')}: ${e(r.number)}</p></div>
<div class="seller" data-testid="receipt-seller">${seller}</div></div>
<dl>
${row('receipt.date', e(date), 'date')}
${row('receipt.customer', e(r.username), 'customer')}
${row('receipt.item', t('receipt.itemText'), 'item')}
${row('receipt.method', e(method), 'method')}
${r.reference && r.method !== 'card' ? row('receipt.reference', e(r.reference), 'reference') : ''}
${row('receipt.amount', `<span class="total">${e(formatAmount(lang, r.amount, r.currency))}</span>`, 'amount')}
</dl>
<p><span class="paid" data-testid="receipt-paid">${t('receipt.paid')}</span></p>
<p>${t('receipt.note')}</p>
<div class="actions"><button type="button" id="print" data-testid="receipt-print">${t('receipt.print')}</button>
<a href="?lang=${lang}&amp;download=1" download="receipt-${e(r.number)}.html" data-testid="receipt-download">${t('receipt.download')}</a>
<a href="/transactions/${r.userId}?lang=${lang}" data-testid="receipt-back">${t('receipt.back')}</a></div>
</main>
<script nonce="${nonce.script}">document.getElementById('print').addEventListener('click',function(){window.print()})</script>
</body></html>`;
}

/** The receipt page's own policy: nothing loads but its own nonce'd style and script; nobody frames it. */
export const receiptCsp = (nonce: { script: string; style: string }) =>
  `default-src 'none'; style-src 'nonce-${nonce.style}'; script-src 'nonce-${nonce.script}'; img-src data:; ` +
  `base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
