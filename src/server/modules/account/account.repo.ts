// Database access of the account screen and of the purge of deleted accounts.
import { and, eq, isNotNull, lte, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import {
  accountLinks,
  accounts,
  authTokens,
  cartItems,
  comments,
  media,
  notices,
  profiles,
  sessions,
  verificationRequests,
  autoTopupTimers,
} from '../../db/schema';

type Conn = Db | Tx;

export async function markDeleted(tx: Tx, id: number, now: Date, purgeAfter: Date): Promise<void> {
  await tx.update(accounts).set({ status: 'deleted', deletedAt: now, purgeAfter }).where(eq(accounts.id, id));
  // Hidden from the directory and search at once (profiles.listed is what they filter on).
  await tx.update(profiles).set({ listed: false, updatedAt: now }).where(eq(profiles.userId, id));
  await tx.delete(accountLinks).where(or(eq(accountLinks.accountId, id), eq(accountLinks.linkedAccountId, id)));
}

export async function updateUsername(db: Conn, id: number, username: string): Promise<void> {
  await db.update(accounts).set({ username }).where(eq(accounts.id, id));
}

export async function updateLanguage(db: Conn, id: number, language: string): Promise<void> {
  await db.update(accounts).set({ language }).where(eq(accounts.id, id));
}

export async function duePurges(db: Db, now: Date, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.status, 'deleted'), isNotNull(accounts.purgeAfter), lte(accounts.purgeAfter, now)))
    .orderBy(accounts.purgeAfter)
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Locks the account for this purge; another instance purging at the same time skips it. */
export async function lockDuePurge(tx: Tx, id: number, now: Date): Promise<boolean> {
  const res = (await tx.execute(
    sql`select id from accounts where id = ${id} and status = 'deleted' and purge_after <= ${now.toISOString()}::timestamptz for update skip locked`,
  )) as unknown as { rows: unknown[] };
  return res.rows.length === 1;
}

export async function filesOf(db: Conn, id: number): Promise<{ public: string[]; private: string[] }> {
  const rows = await db
    .select({ key: media.storageKey, variants: media.variants, type: media.type })
    .from(media)
    .where(eq(media.userId, id));
  const ids = await db
    .select({ key: verificationRequests.photoIdKey })
    .from(verificationRequests)
    .where(and(eq(verificationRequests.userId, id), isNotNull(verificationRequests.photoIdKey)));
  const publicKeys = new Set<string>();
  // A video waits in the private store until an admin approves it (media.service).
  const privateKeys = new Set(ids.map((r) => r.key as string));
  for (const r of rows) {
    for (const key of [r.key, ...Object.values(r.variants ?? {})]) {
      publicKeys.add(key);
      if (r.type === 'video') privateKeys.add(key);
    }
  }
  return { public: [...publicKeys], private: [...privateKeys] };
}

export async function deleteAccountRow(tx: Tx, id: number): Promise<void> {
  await tx.delete(accounts).where(eq(accounts.id, id));
}

/**
 * For an account that money records must keep (payments, orders, ledger: bookkeeping law), the row
 * stays as an anonymous tombstone and every piece of personal data goes.
 */
export async function anonymize(tx: Tx, id: number): Promise<void> {
  await tx.delete(profiles).where(eq(profiles.userId, id));
  await tx.delete(media).where(eq(media.userId, id));
  await tx.delete(verificationRequests).where(eq(verificationRequests.userId, id));
  await tx.delete(comments).where(eq(comments.authorId, id));
  await tx.delete(sessions).where(eq(sessions.accountId, id));
  await tx.delete(authTokens).where(eq(authTokens.accountId, id));
  await tx.delete(accountLinks).where(or(eq(accountLinks.accountId, id), eq(accountLinks.linkedAccountId, id)));
  await tx.delete(notices).where(eq(notices.userId, id));
  await tx.delete(cartItems).where(eq(cartItems.userId, id));
  await tx.delete(autoTopupTimers).where(eq(autoTopupTimers.userId, id));
  await tx
    .update(accounts)
    .set({
      email: `deleted-${id}@deleted.invalid`,
      username: `deleted-${id}`,
      passwordHash: '!',
      mobile: null,
      mobileVerifiedAt: null,
      emailVerifiedAt: null,
      dateOfBirth: '1900-01-01',
      lastSeenAt: null,
      purgeAfter: null,
    })
    .where(eq(accounts.id, id));
}
