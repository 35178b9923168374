// The cart (spec section 3 "Cart"; DESIGN.md "Money"): items held on the server per account, priced at
// the current prices, with the summary the checkout shows.
import crypto from 'node:crypto';
import { msg } from '#shared/api/messages.ts';
import { ADDITIONAL_LOCATION_DAYS } from '#shared/constants.ts';
import { CART_MAX_ITEMS, type AddToCartBody, type Cart, type ProductCode } from '#shared/schemas/money.ts';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { ValidationError } from '../../lib/errors';
import { additionalPeriod, citiesByIds, homeCityOf, positionOf } from '../listings/listings.service';
import { assertTourDates } from '../listings/tour-dates';
import { atomically } from './atomic';
import { balanceOf, lockMoney } from './ledger';
import * as repo from './money.repo';
import type { OrderItem } from './money.repo';
import { listProducts, type ProductRow } from './products';

export interface CartLine extends OrderItem {
  city: { id: number; name: string; country: string } | null;
}

/** 0 when the balance covers the total, otherwise at least the minimum top-up (DESIGN.md). */
export function summarize(total: number, balance: number, minimumTopup: number) {
  const amountToPay = total <= balance ? 0 : Math.max(total - balance, minimumTopup);
  return { total, amount_to_pay: amountToPay, new_balance: balance + amountToPay - total };
}

/** The cart's items at today's prices. */
export async function cartLines(ctx: AppContext, userId: number, db: Db | Tx = ctx.db): Promise<CartLine[]> {
  const [rows, products] = await Promise.all([repo.cartRows(db, userId), listProducts(ctx, db)]);
  const byCode = new Map(products.map((p) => [p.code, p]));
  const cityIds = rows.map((r) => Number(r.params.cityId)).filter((id) => id > 0);
  const cities = await citiesByIds(db, cityIds);
  return rows.flatMap((row) => {
    const product = byCode.get(row.productCode as ProductCode);
    if (!product) return [];
    const city = cities.get(Number(row.params.cityId)) ?? null;
    const params = row.params as OrderItem['params'];
    return [
      {
        uid: row.uid,
        productCode: product.code,
        price: product.price,
        params: {
          ...(product.code === 'additional_location'
            ? { cityId: params.cityId, from: params.from ?? null, until: params.until ?? null }
            : {}),
          ...(product.durationDays ? { days: product.durationDays } : {}),
        },
        city: city ? { id: city.id, name: city.name, country: city.countryCode } : null,
      },
    ];
  });
}

export async function getCart(ctx: AppContext, userId: number): Promise<Cart> {
  const [lines, balance, position] = await Promise.all([
    cartLines(ctx, userId),
    balanceOf(ctx.db, userId),
    positionOf(ctx.db, userId, ctx.now()),
  ]);
  const total = lines.reduce((sum, l) => sum + l.price, 0);
  return {
    items: lines.map((l) => ({
      uid: l.uid,
      product: l.productCode,
      price: l.price,
      city: l.city,
      from: l.params.from ?? null,
      until: l.params.until ?? null,
    })),
    currency: ctx.env.SITE_CURRENCY,
    balance,
    minimum_topup: ctx.env.MIN_TOPUP,
    ...summarize(total, balance, ctx.env.MIN_TOPUP),
    position,
  };
}

/** Only a listed profile can buy position: a top-up of an invisible profile moves nothing. */
export async function assertListed(ctx: AppContext, userId: number, field = 'uid') {
  if ((await positionOf(ctx.db, userId, ctx.now())) === null)
    throw ValidationError.field(field, msg('money.notListed'));
}

function assertActive(product: ProductRow | undefined) {
  if (!product?.active) throw ValidationError.field('uid', msg('money.productInactive'));
  return product;
}

export async function addToCart(ctx: AppContext, userId: number, body: AddToCartBody): Promise<Cart> {
  const products = await listProducts(ctx);
  const product = assertActive(products.find((p) => p.code === body.uid));
  await assertListed(ctx, userId);
  if (body.uid === 'standard_topup') {
    // One top-up per cart: its uid is fixed, so a double click adds it once.
    await addItem(ctx, userId, {
      uid: `topup-${userId}`,
      productCode: 'standard_topup',
      params: {},
      createdAt: ctx.now(),
    });
    return getCart(ctx, userId);
  }
  await assertRoom(ctx.db, userId);
  const city = (await citiesByIds(ctx.db, [body.city_id])).get(body.city_id);
  if (!city) throw ValidationError.field('city_id', msg('money.cityNotFound'));
  const home = await homeCityOf(ctx.db, userId);
  if (home?.id === city.id) throw ValidationError.field('city_id', msg('money.homeCity'));
  const inCart = await cartLines(ctx, userId);
  if (inCart.some((l) => l.params.cityId === city.id)) throw ValidationError.field('city_id', msg('money.cityInCart'));
  const days = product.durationDays ?? ADDITIONAL_LOCATION_DAYS;
  const from = body.from ?? null;
  const until = body.until ?? null;
  // A tour's dates lie inside the days this purchase pays for (a renewal's from the running end on):
  // docs/decisions/0403, the rule delivery applies too.
  const period = await additionalPeriod(ctx.db, { profileId: userId, cityId: city.id, days, now: ctx.now() });
  if (period) assertTourDates({ from, until }, { now: ctx.now(), ...period });
  await addItem(ctx, userId, {
    uid: crypto.randomUUID(),
    productCode: 'additional_location',
    params: { cityId: city.id, from, until },
    createdAt: ctx.now(),
  });
  return getCart(ctx, userId);
}

async function assertRoom(db: Db | Tx, userId: number) {
  if ((await repo.cartCount(db, userId)) >= CART_MAX_ITEMS)
    throw ValidationError.field('uid', msg('money.cartFull', { max: CART_MAX_ITEMS }));
}

/** Under the user's money lock (decision 0401): a cart edit waits for a payment consuming the cart. */
async function addItem(ctx: AppContext, userId: number, item: Omit<repo.CartItemRow, 'userId'>) {
  await atomically(ctx, async (tx) => {
    await lockMoney(tx, [userId]);
    await assertRoom(tx, userId);
    await repo.insertCartItem(tx, { ...item, userId });
  });
}

export async function removeCartItem(ctx: AppContext, userId: number, uid: string): Promise<Cart> {
  await atomically(ctx, async (tx) => {
    await lockMoney(tx, [userId]);
    // Someone else's item looks exactly like a missing one. Thrown inside the transaction, so a refusal
    // rolls back everything it did (the ledger account lockMoney creates on first use included).
    if (!(await repo.deleteCartItems(tx, userId, [uid]))) throw ValidationError.field('uid', msg('money.itemNotFound'));
  });
  return getCart(ctx, userId);
}
