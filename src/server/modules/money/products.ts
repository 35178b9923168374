// Products and prices (docs/decisions/0403): rows of `products`, created from the configured defaults
// when missing, then edited by admins only (the table wins over the configuration from then on).
import { ADDITIONAL_LOCATION_DAYS } from '#shared/constants.ts';
import type { ProductCode, UpdateProductBody } from '#shared/schemas/money.ts';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { writeAudit } from '../../db/audit';
import * as repo from './money.repo';

export type ProductRow = repo.ProductRow;

const ensured = new WeakSet<object>();

async function ensureDefaults(ctx: AppContext, db: Db | Tx) {
  if (ensured.has(ctx.db)) return;
  // Inside the caller's transaction when there is one (PGlite has one connection: another would wait).
  await repo.insertProductsIfMissing(db, [
    { code: 'standard_topup', name: 'Standard top-up', price: ctx.env.PRICE_STANDARD_TOPUP },
    {
      code: 'additional_location',
      name: 'Additional location',
      price: ctx.env.PRICE_ADDITIONAL_LOCATION,
      durationDays: ADDITIONAL_LOCATION_DAYS,
    },
  ]);
  // A transaction may still roll back: only a plain write is known to stay.
  if (db === ctx.db) ensured.add(ctx.db);
}

export async function listProducts(ctx: AppContext, db: Db | Tx = ctx.db): Promise<ProductRow[]> {
  await ensureDefaults(ctx, db);
  return repo.allProducts(db);
}

export async function productByCode(ctx: AppContext, code: ProductCode, db: Db | Tx = ctx.db) {
  const all = await listProducts(ctx, db);
  const found = all.find((p) => p.code === code);
  if (!found) throw new Error(`product ${code} is missing`);
  return found;
}

/** Admin: a new price (and duration, availability). The change and its audit line commit together. */
export async function updateProduct(
  ctx: AppContext,
  body: UpdateProductBody,
  actor: { id: number } | null = null,
): Promise<ProductRow[]> {
  await ensureDefaults(ctx, ctx.db);
  await ctx.db.transaction(async (tx) => {
    const before = await repo.lockProduct(tx, body.code);
    const after = await repo.updateProductRow(tx, body.code, {
      price: body.price,
      ...(body.active === undefined ? {} : { active: body.active }),
      ...(body.duration_days === undefined || body.code !== 'additional_location'
        ? {}
        : { durationDays: body.duration_days }),
    });
    if (before && after)
      await writeAudit(tx, {
        actorId: actor?.id ?? null,
        action: 'money.product',
        targetUserId: null,
        data: { code: body.code },
        before: presentProduct(before),
        after: presentProduct(after),
        at: ctx.now(),
      });
  });
  return listProducts(ctx);
}

export const presentProduct = (p: ProductRow) => ({
  code: p.code,
  price: p.price,
  duration_days: p.durationDays,
  active: p.active,
});
