// SQL of the media module: the media rows of a profile, its avatar pointer, the near-duplicate search
// over perceptual-hash bands and the admin's video queue.
import { and, asc, type Column, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { union } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { accounts, media, profiles } from '../../db/schema';
import { isComplete, isListed } from '../profiles/profile-derive';

type Conn = Db | Tx;
export type MediaRow = typeof media.$inferSelect;
export type NewMediaRow = typeof media.$inferInsert;

export async function listMedia(db: Conn, userId: number): Promise<MediaRow[]> {
  return db
    .select()
    .from(media)
    .where(eq(media.userId, userId))
    .orderBy(asc(media.type), asc(media.position), asc(media.id));
}

export async function findMedia(db: Conn, userId: number, mediaId: number): Promise<MediaRow | null> {
  const [row] = await db
    .select()
    .from(media)
    .where(and(eq(media.id, mediaId), eq(media.userId, userId)));
  return row ?? null;
}

export async function findMediaById(db: Conn, mediaId: number): Promise<MediaRow | null> {
  const [row] = await db.select().from(media).where(eq(media.id, mediaId));
  return row ?? null;
}

export async function findByType(db: Conn, userId: number, type: MediaRow['type']): Promise<MediaRow[]> {
  return db
    .select()
    .from(media)
    .where(and(eq(media.userId, userId), eq(media.type, type)))
    .orderBy(asc(media.position), asc(media.id));
}

export async function countGallery(db: Conn, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(media)
    .where(and(eq(media.userId, userId), eq(media.type, 'gallery')));
  return Number(row.n);
}

export async function nextGalleryPosition(tx: Tx, userId: number): Promise<number> {
  const [row] = await tx
    .select({ top: sql<number | null>`max(${media.position})` })
    .from(media)
    .where(and(eq(media.userId, userId), eq(media.type, 'gallery')));
  return row.top === null ? 0 : Number(row.top) + 1;
}

/** `createdAt` is the app's clock (ctx.now()), never the column's default: the video queue orders by it. */
export async function insertMedia(tx: Tx, row: NewMediaRow & { createdAt: Date }): Promise<MediaRow> {
  const [inserted] = await tx.insert(media).values(row).returning();
  return inserted;
}

export async function deleteMediaRows(tx: Tx, ids: number[]): Promise<MediaRow[]> {
  if (!ids.length) return [];
  return tx.delete(media).where(inArray(media.id, ids)).returning();
}

export async function deleteAllOf(tx: Tx, userId: number): Promise<MediaRow[]> {
  return tx.delete(media).where(eq(media.userId, userId)).returning();
}

export async function setGalleryPositions(tx: Tx, userId: number, ids: number[]): Promise<void> {
  for (const [position, id] of ids.entries()) {
    await tx
      .update(media)
      .set({ position })
      .where(and(eq(media.id, id), eq(media.userId, userId), eq(media.type, 'gallery')));
  }
}

export async function avatarOf(db: Conn, userId: number): Promise<number | null> {
  const [row] = await db.select({ id: profiles.avatarMediaId }).from(profiles).where(eq(profiles.userId, userId));
  return row?.id ?? null;
}

/**
 * Points the profile at its avatar (or none) and re-derives `complete` and `listed`: the avatar is one
 * of the required items (profile-derive), so adding or deleting it can list or unlist the profile.
 * True when it did (the directory's cached counts and search hits are then out of date).
 */
export async function setAvatar(tx: Tx, userId: number, mediaId: number | null): Promise<boolean> {
  const [row] = await tx
    .select({ profile: profiles, accountStatus: accounts.status })
    .from(profiles)
    .innerJoin(accounts, eq(accounts.id, profiles.userId))
    .where(eq(profiles.userId, userId));
  if (!row) return false;
  const complete = isComplete(row.profile, mediaId !== null);
  const listed = isListed({
    complete,
    adStatus: row.profile.adStatus,
    flagged: row.profile.flagged,
    accountStatus: row.accountStatus,
  });
  await tx.update(profiles).set({ avatarMediaId: mediaId, complete, listed }).where(eq(profiles.userId, userId));
  return listed !== row.profile.listed;
}

export async function updateMedia(
  db: Conn,
  mediaId: number,
  values: Partial<NewMediaRow>,
  whenStatus?: MediaRow['status'],
) {
  const where = whenStatus ? and(eq(media.id, mediaId), eq(media.status, whenStatus)) : eq(media.id, mediaId);
  const rows = await db.update(media).set(values).where(where).returning();
  return rows[0] ?? null;
}

/**
 * Rows of this hash version whose hash shares a band with one of the given band values and lies within
 * `maxDistance` bits of `hash`, nearest first (at most 500). One index-only scan per band: each band's
 * index carries the version, the hash and the id (migration 0014), so the thousands of rows that share
 * a band value at millions of pictures are never read from the table (bench/duplicate-lookup.bench.ts:
 * 4 bitmap scans of the table cost about 8 times more at 3 million rows).
 */
export async function hashCandidates(
  db: Conn,
  bands: [number[], number[], number[], number[]],
  hash: bigint,
  maxDistance: number,
  version: number,
) {
  const distance = sql<number>`bit_count((${media.phash} # ${hash.toString()}::bigint)::bit(64))::int`;
  const band = (column: Column, values: number[]) =>
    db
      .select({ id: media.id, distance })
      .from(media)
      .where(
        and(
          // The band's values as one array parameter: 1 parameter, not 137 (their parsing cost more).
          sql`${column} = any(${sql.param(values)}::int[])`,
          eq(media.phashVersion, version),
          sql`${distance} <= ${maxDistance}`,
        ),
      );
  const near = await union(
    band(media.phashB0, bands[0]),
    band(media.phashB1, bands[1]),
    band(media.phashB2, bands[2]),
    band(media.phashB3, bands[3]),
  );
  near.sort((a, b) => a.distance - b.distance || a.id - b.id);
  const nearest = near.slice(0, 500);
  if (!nearest.length) return [];
  const rows = await db
    .select({ id: media.id, userId: media.userId, type: media.type })
    .from(media)
    .where(
      inArray(
        media.id,
        nearest.map((r) => r.id),
      ),
    );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return nearest.flatMap((r) => {
    const row = byId.get(r.id);
    return row ? [{ ...row, distance: Number(r.distance) }] : [];
  });
}

export async function pendingVideos(db: Conn, limit: number, offset: number) {
  return db
    .select({ row: media, screenName: profiles.screenName, username: accounts.username })
    .from(media)
    .innerJoin(accounts, eq(accounts.id, media.userId))
    .leftJoin(profiles, eq(profiles.userId, media.userId))
    .where(and(eq(media.type, 'video'), eq(media.status, 'pending'), ne(accounts.status, 'deleted')))
    .orderBy(asc(media.createdAt), asc(media.id))
    .limit(limit)
    .offset(offset);
}

export async function countPendingVideos(db: Conn): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(media)
    .where(and(eq(media.type, 'video'), eq(media.status, 'pending')));
  return Number(row.n);
}

export async function latestVideoOf(db: Conn, userId: number): Promise<MediaRow | null> {
  const [row] = await db
    .select()
    .from(media)
    .where(and(eq(media.userId, userId), eq(media.type, 'video')))
    .orderBy(desc(media.id))
    .limit(1);
  return row ?? null;
}

/** Avatar rows of these accounts (the profile's avatar pointer). */
export async function avatarsOf(db: Conn, userIds: number[]): Promise<MediaRow[]> {
  if (!userIds.length) return [];
  return db
    .select({ media })
    .from(profiles)
    .innerJoin(media, eq(media.id, profiles.avatarMediaId))
    .where(inArray(profiles.userId, userIds))
    .then((rows) => rows.map((r) => r.media));
}

export async function findManyById(db: Conn, ids: number[]): Promise<MediaRow[]> {
  if (!ids.length) return [];
  return db.select().from(media).where(inArray(media.id, ids));
}

export interface HashedPicture {
  id: number;
  userId: number;
  hash: bigint;
  mirror: bigint;
}

const hashedColumns = { id: media.id, userId: media.userId, phash: media.phash, phashMirror: media.phashMirror };
const toHashed = (r: { id: number; userId: number; phash: bigint | null; phashMirror: bigint | null }) => ({
  id: r.id,
  userId: r.userId,
  hash: r.phash as bigint,
  mirror: r.phashMirror as bigint,
});

/**
 * Pictures (not video posters) hashed with this version, above an id: the duplicate scan walks them once.
 */
export async function hashedPicturesAfter(
  db: Conn,
  afterId: number,
  limit: number,
  version: number,
): Promise<HashedPicture[]> {
  return db
    .select(hashedColumns)
    .from(media)
    .where(
      and(
        sql`${media.id} > ${afterId}`,
        eq(media.phashVersion, version),
        sql`${media.phash} is not null`,
        ne(media.type, 'video'),
      ),
    )
    .orderBy(asc(media.id))
    .limit(limit)
    .then((rows) => rows.map(toHashed));
}

/** One picture's hashes, when it is a picture hashed with this version. */
export async function hashedPicture(db: Conn, mediaId: number, version: number): Promise<HashedPicture | null> {
  const [row] = await db
    .select(hashedColumns)
    .from(media)
    .where(
      and(
        eq(media.id, mediaId),
        eq(media.phashVersion, version),
        sql`${media.phash} is not null`,
        ne(media.type, 'video'),
      ),
    );
  return row ? toHashed(row) : null;
}

/**
 * Pictures (not videos: their posters are never compared) still hashed with an older version, with the
 * key of their largest stored JPEG. Asked every minute: a range of media_older_hash (docs/decisions/0757),
 * whose predicate these conditions repeat as written (a literal, not a parameter, for the type).
 */
export function picturesOfOlderHash(db: Conn, version: number, limit: number) {
  return db
    .select({ id: media.id, userId: media.userId, storageKey: media.storageKey, version: media.phashVersion })
    .from(media)
    .where(and(sql`${media.phashVersion} < ${version}`, sql`${media.phash} is not null and ${media.type} <> 'video'`))
    .orderBy(asc(media.id))
    .limit(limit);
}

/** New hashes of a row, written only if nobody re-hashed it meanwhile. */
export async function setHashes(
  db: Conn,
  mediaId: number,
  from: number,
  values: Pick<NewMediaRow, 'phash' | 'phashMirror' | 'phashVersion' | 'phashB0' | 'phashB1' | 'phashB2' | 'phashB3'>,
): Promise<boolean> {
  const rows = await db
    .update(media)
    .set(values)
    .where(and(eq(media.id, mediaId), eq(media.phashVersion, from)))
    .returning({ id: media.id });
  return rows.length > 0;
}
