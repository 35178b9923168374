// What money sends out: orders, payments and a payment's outcome as the API shows them (the shared
// schemas in src/shared/schemas/money.ts), from the stored rows. No reads, no decisions.
import type { OrderView, PaymentResult, PaymentView } from '#shared/schemas/money.ts';
import type { OrderRow, PaymentRow } from './money.repo';

export function presentOrder(o: OrderRow): OrderView {
  return {
    id: o.id,
    status: o.status,
    total: o.total,
    items: o.items.map((i) => ({ product: i.productCode, price: i.price, city_id: i.params.cityId ?? null })),
    created_at: o.createdAt.toISOString(),
  };
}

export function presentPayment(p: PaymentRow): PaymentView {
  const d = p.details as {
    last4?: string;
    redirectUrl?: string;
    invoice?: PaymentView['invoice'];
  };
  return {
    id: p.id,
    method: p.method,
    provider: p.provider,
    status: p.status,
    amount: p.amount,
    currency: p.currency,
    card_last4: d.last4 ?? null,
    next_action: p.status === 'requires_action' && d.redirectUrl ? { type: 'redirect', url: d.redirectUrl } : null,
    invoice: d.invoice ?? null,
    created_at: p.createdAt.toISOString(),
  };
}

export function statusOf(order: OrderRow | null, payment: PaymentRow | null): PaymentResult['status'] {
  if (order?.status === 'paid') return 'paid';
  if (payment?.status === 'succeeded') return 'loaded';
  if (payment?.status === 'requires_action') return 'requires_action';
  if (payment?.status === 'pending' && order?.status !== 'failed') return 'pending';
  return 'failed';
}
