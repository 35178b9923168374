// Database access of the auth module: accounts, one-time tokens, account links.
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { accountLinks, accounts, authTokens, profiles } from '../../db/schema';
import type { TokenPurpose } from './tokens';

type Conn = Db | Tx;
export type AccountRow = typeof accounts.$inferSelect;
export type TokenRow = typeof authTokens.$inferSelect;

export async function findAccountByLogin(db: Conn, login: string): Promise<AccountRow | undefined> {
  const value = login.trim().toLowerCase();
  // Usernames cannot contain "@", so the two never collide.
  const where = value.includes('@')
    ? sql`lower(${accounts.email}) = ${value}`
    : sql`lower(${accounts.username}) = ${value}`;
  const [row] = await db.select().from(accounts).where(where).limit(1);
  return row;
}

export async function findAccountById(db: Conn, id: number): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id)).limit(1);
  return row;
}

export async function emailTaken(db: Conn, email: string, exceptId = 0): Promise<boolean> {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(sql`lower(${accounts.email}) = ${email.toLowerCase()}`, sql`${accounts.id} <> ${exceptId}`))
    .limit(1);
  return !!row;
}

export async function usernameTaken(db: Conn, username: string, exceptId = 0): Promise<boolean> {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(sql`lower(${accounts.username}) = ${username.toLowerCase()}`, sql`${accounts.id} <> ${exceptId}`))
    .limit(1);
  return !!row;
}

export async function insertAccountWithProfile(
  tx: Tx,
  values: {
    email: string;
    username: string;
    passwordHash: string;
    dateOfBirth: string;
    termsAcceptedAt: Date;
    language: string;
  },
  now: Date,
): Promise<AccountRow> {
  const [account] = await tx
    .insert(accounts)
    .values({ ...values, createdAt: now })
    .returning();
  // Every account owns one profile ad; it stays unlisted until the profile is complete.
  await tx
    .insert(profiles)
    .values({ userId: account.id, complete: false, listed: false, createdAt: now, updatedAt: now });
  return account;
}

export async function updateAccount(
  db: Conn,
  id: number,
  values: Partial<typeof accounts.$inferInsert>,
): Promise<void> {
  await db.update(accounts).set(values).where(eq(accounts.id, id));
}

// ---------------------------------------------------------------- tokens

export async function insertToken(
  db: Conn,
  values: { accountId: number; purpose: TokenPurpose; tokenHash: string; target?: string | null; expiresAt: Date },
  now: Date,
): Promise<TokenRow> {
  const [row] = await db
    .insert(authTokens)
    .values({ ...values, createdAt: now })
    .returning();
  return row;
}

/** Retires the open tokens of a purpose, so only the newest link or PIN works. */
export async function retireTokens(db: Conn, accountId: number, purposes: TokenPurpose[], now: Date): Promise<void> {
  await db
    .update(authTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(authTokens.accountId, accountId),
        or(...purposes.map((p) => eq(authTokens.purpose, p))),
        isNull(authTokens.usedAt),
      ),
    );
}

export async function findToken(db: Conn, id: number): Promise<TokenRow | undefined> {
  const [row] = await db.select().from(authTokens).where(eq(authTokens.id, id)).limit(1);
  return row;
}

/** Marks a live token used; false when another request used it first (single use under races). */
export async function consumeToken(db: Conn, id: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(authTokens)
    .set({ usedAt: now })
    .where(and(eq(authTokens.id, id), isNull(authTokens.usedAt), gt(authTokens.expiresAt, now)))
    .returning({ id: authTokens.id });
  return rows.length === 1;
}

/**
 * Takes one attempt of a live PIN before it is compared: the new attempt number, or null when the
 * PIN is used, expired or has no attempt left. One UPDATE, so parallel guesses cannot share a count.
 */
export async function reserveTokenAttempt(db: Conn, id: number, maxAttempts: number, now: Date) {
  const [row] = await db
    .update(authTokens)
    .set({ attempts: sql`${authTokens.attempts} + 1` })
    .where(
      and(
        eq(authTokens.id, id),
        isNull(authTokens.usedAt),
        gt(authTokens.expiresAt, now),
        lt(authTokens.attempts, maxAttempts),
      ),
    )
    .returning({ attempts: authTokens.attempts });
  return row ? row.attempts : null;
}

/** The last allowed wrong guess burns the PIN. */
export async function retireToken(db: Conn, id: number, now: Date): Promise<void> {
  await db
    .update(authTokens)
    .set({ usedAt: now })
    .where(and(eq(authTokens.id, id), isNull(authTokens.usedAt)));
}

export async function openToken(
  db: Conn,
  accountId: number,
  purpose: TokenPurpose,
  now: Date,
): Promise<TokenRow | undefined> {
  const [row] = await db
    .select()
    .from(authTokens)
    .where(
      and(
        eq(authTokens.accountId, accountId),
        eq(authTokens.purpose, purpose),
        isNull(authTokens.usedAt),
        gt(authTokens.expiresAt, now),
      ),
    )
    .orderBy(sql`${authTokens.id} desc`)
    .limit(1);
  return row;
}

/** Tokens used or expired more than a week ago are no longer needed even for support questions. */
export async function deleteStaleTokens(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - 7 * 86_400_000);
  const rows = await db
    .delete(authTokens)
    .where(or(lt(authTokens.expiresAt, cutoff), lt(authTokens.usedAt, cutoff)))
    .returning({ id: authTokens.id });
  return rows.length;
}

// ---------------------------------------------------------------- links

export async function linkBothWays(db: Conn, a: number, b: number, now: Date): Promise<void> {
  await db
    .insert(accountLinks)
    .values([
      { accountId: a, linkedAccountId: b, createdAt: now },
      { accountId: b, linkedAccountId: a, createdAt: now },
    ])
    .onConflictDoNothing();
}

export async function unlinkBothWays(db: Conn, a: number, b: number): Promise<void> {
  await db
    .delete(accountLinks)
    .where(
      or(
        and(eq(accountLinks.accountId, a), eq(accountLinks.linkedAccountId, b)),
        and(eq(accountLinks.accountId, b), eq(accountLinks.linkedAccountId, a)),
      ),
    );
}

/** Every link into and out of the account (links are stored both ways). */
export async function unlinkAll(db: Conn, id: number): Promise<void> {
  await db.delete(accountLinks).where(or(eq(accountLinks.accountId, id), eq(accountLinks.linkedAccountId, id)));
}

export async function isLinked(db: Conn, from: number, to: number): Promise<boolean> {
  const [row] = await db
    .select({ id: accountLinks.linkedAccountId })
    .from(accountLinks)
    .where(and(eq(accountLinks.accountId, from), eq(accountLinks.linkedAccountId, to)))
    .limit(1);
  return !!row;
}

export async function listLinks(db: Conn, accountId: number) {
  return db
    .select({ userId: accounts.id, username: accounts.username, screenName: profiles.screenName })
    .from(accountLinks)
    .innerJoin(accounts, eq(accounts.id, accountLinks.linkedAccountId))
    .leftJoin(profiles, eq(profiles.userId, accounts.id))
    .where(and(eq(accountLinks.accountId, accountId), eq(accounts.status, 'active')))
    .orderBy(accounts.username);
}

// ---------------------------------------------------------------- current user

export async function currentUserRow(db: Conn, id: number) {
  const [row] = await db
    .select({
      id: accounts.id,
      username: accounts.username,
      role: accounts.role,
      language: accounts.language,
      emailVerifiedAt: accounts.emailVerifiedAt,
      mobileVerifiedAt: accounts.mobileVerifiedAt,
      complete: profiles.complete,
      verification: profiles.verificationStatus,
    })
    .from(accounts)
    .leftJoin(profiles, eq(profiles.userId, accounts.id))
    .where(eq(accounts.id, id))
    .limit(1);
  return row;
}

/** At most one write a minute per account: the WHERE skips fresher rows. */
export async function touchLastSeen(db: Conn, id: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(accounts)
    .set({ lastSeenAt: now })
    .where(
      and(
        eq(accounts.id, id),
        or(isNull(accounts.lastSeenAt), lt(accounts.lastSeenAt, new Date(now.getTime() - 60_000))),
      ),
    )
    .returning({ id: accounts.id });
  return rows.length === 1;
}

/** Active admins' addresses and languages (the Get Help form mails them). */
export async function adminContacts(db: Conn): Promise<Array<{ email: string; language: string }>> {
  return db
    .select({ email: accounts.email, language: accounts.language })
    .from(accounts)
    .where(and(eq(accounts.role, 'admin'), eq(accounts.status, 'active')));
}
