// Row lock on an account: serialises the changes one account makes to its own things (media, gallery
// count, verification requests) across requests and instances. False when the account does not exist.
import { eq } from 'drizzle-orm';
import type { Tx } from './client';
import { accounts } from './schema';

export async function lockAccount(tx: Tx, userId: number): Promise<boolean> {
  const rows = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, userId)).for('update');
  return rows.length > 0;
}
