// Paying an order from the balance (decision 0401): consumes its cart items, debits the balance to
// revenue (ledger key `order:<id>`) and delivers what it bought, in the caller's transaction and under
// the caller's money lock. Used by checkout (balance payments, purchases) and settlement (a load that
// pays its order).
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { addAdditionalListing, bumpProfile } from '../listings/listings.service';
import { pausePoint } from './fault';
import { transfer, type MoneyLock } from './ledger';
import * as repo from './money.repo';
import type { OrderRow } from './money.repo';

/** The cart an order was made from lost an item meanwhile (bought by a parallel order, or removed). */
export class CartChanged extends Error {}

/** Debits the order from the balance and delivers what it bought, in the caller's transaction. */
export async function payOrder(
  ctx: AppContext,
  tx: Tx,
  lock: MoneyLock,
  order: OrderRow,
  fromCart: boolean,
): Promise<number> {
  const now = ctx.now();
  if (fromCart) {
    const uids = order.items.map((i) => i.uid);
    if ((await repo.deleteCartItems(tx, order.userId, uids)) !== uids.length) throw new CartChanged();
    await pausePoint(ctx, 'order_cart_consumed');
  }
  const { transactionId } = await transfer(tx, lock, {
    kind: order.source === 'auto_topup' ? 'auto_topup' : 'purchase',
    idempotencyKey: `order:${order.id}`,
    userId: order.userId,
    orderId: order.id,
    at: now,
    from: { user: order.userId },
    to: 'revenue',
    amount: order.total,
  });
  for (const item of order.items) {
    if (item.productCode === 'standard_topup') await bumpProfile(tx, order.userId, now);
    else
      await addAdditionalListing(tx, {
        profileId: order.userId,
        cityId: Number(item.params.cityId),
        days: Number(item.params.days),
        from: item.params.from ?? null,
        until: item.params.until ?? null,
        now,
      });
  }
  await repo.markOrderPaid(tx, order.id, now);
  return transactionId;
}
