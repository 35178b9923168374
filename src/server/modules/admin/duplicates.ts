// Duplicate pictures across accounts (docs/decisions/0503, 0507): the media pipeline stores a perceptual
// hash of every picture (and of its mirror image) with four indexed 16-bit bands. Each stored picture is
// looked up among the other accounts' pictures by a job queued with it (checkStoredPicture: within
// seconds of the upload); the periodic scan walks the pictures once, in id order, as a backstop (a job
// lost with its machine), and re-hashes pictures stored under an older hash. A near hash in another
// account is a possible stolen photo or impersonation, and waits in the admin's queue.
import { msg } from '#shared/api/messages.ts';
import { ADMIN_PAGE_SIZE, type DuplicateMatch, type DuplicatesPage } from '#shared/schemas/admin.ts';
import type { AppContext } from '../../context';
import { writeAudit } from '../../db/audit';
import type { JobHandler } from '../../lib/jobs';
import { notFound, ValidationError } from '../../lib/errors';
import * as media from '../media/media.service';
import { presentPeople, type Actor } from './people.service';
import * as repo from './admin.repo';

/**
 * Bits two hashes may differ by and still count as the same picture. bench/duplicates.bench.ts, 200
 * generated pictures with six transformed copies each: 97.0 % of the copies within 8 bits, 2 of 39,800
 * unrelated pairs (0.01 %). 8 bits means a band within 2 bits: 4 x 137 indexed values per lookup.
 */
export const DUPLICATE_MAX_DISTANCE = 8;
const BATCH = 200;

type MatchInsert = Parameters<typeof repo.insertMatches>[1][number];

/**
 * The pairs a picture makes with other accounts' pictures (never one's own: an avatar is also in the
 * gallery; never a video's poster), each written newer -> older so a pair has one row.
 * `olderOnly`: only pictures stored before it (the scan, which meets every picture once).
 */
async function pairsOf(
  ctx: AppContext,
  picture: { id: number; userId: number; hash: bigint; mirror: bigint | null },
  olderOnly: boolean,
): Promise<MatchInsert[]> {
  const similar = await media.findSimilarImages(ctx, picture, DUPLICATE_MAX_DISTANCE);
  return similar
    .filter((s) => s.mediaId !== picture.id && s.userId !== picture.userId && s.type !== 'video')
    .filter((s) => !olderOnly || s.mediaId < picture.id)
    .map((s) =>
      s.mediaId < picture.id
        ? {
            mediaId: picture.id,
            otherMediaId: s.mediaId,
            userId: picture.userId,
            otherUserId: s.userId,
            distance: s.distance,
          }
        : {
            mediaId: s.mediaId,
            otherMediaId: picture.id,
            userId: s.userId,
            otherUserId: picture.userId,
            distance: s.distance,
          },
    );
}

/** Looks one stored picture up among the other accounts' pictures; returns how many new matches it made. */
export async function checkPicture(ctx: AppContext, mediaId: number): Promise<number> {
  const picture = await media.hashedPicture(ctx, mediaId);
  if (!picture) return 0;
  const rows = await pairsOf(ctx, picture, false);
  if (!rows.length) return 0;
  return ctx.db.transaction((tx) => repo.insertMatches(tx, rows, ctx.now()));
}

/** The job queued with each stored picture (media.PICTURE_STORED_JOB). */
const checkStoredPicture: JobHandler = async (ctx, payload) => {
  await checkPicture(ctx, Number(payload.mediaId));
};

export const duplicateJobHandlers: Record<string, JobHandler> = { [media.PICTURE_STORED_JOB]: checkStoredPicture };

/**
 * Re-hashes up to `limit` pictures stored under an older hash version and looks each one up; returns how
 * many new matches that made. A periodic task, until no picture of an older version is left.
 */
export async function rehashPictures(ctx: AppContext, limit = 100): Promise<number> {
  let found = 0;
  for (const id of await media.rehashOlderPictures(ctx, limit)) found += await checkPicture(ctx, id);
  return found;
}

/** Scans the pictures uploaded since the last scan; returns how many new matches it found. */
export async function scanDuplicates(ctx: AppContext, maxBatches = 50): Promise<number> {
  let found = 0;
  for (let i = 0; i < maxBatches; i++) {
    // Reads outside the transaction (PGlite has one connection: a query beside an open transaction
    // would wait for it); the transaction then moves the cursor only if nobody else moved it meanwhile.
    const cursor = await repo.readScanCursor(ctx.db);
    const pictures = await media.hashedPicturesAfter(ctx, cursor, BATCH);
    if (!pictures.length) break;
    const rows: MatchInsert[] = [];
    for (const p of pictures) rows.push(...(await pairsOf(ctx, p, true)));
    const matched = await ctx.db.transaction(async (tx) => {
      if ((await repo.lockScanCursor(tx)) !== cursor) return 0;
      const n = await repo.insertMatches(tx, rows, ctx.now());
      await repo.setScanCursor(tx, pictures[pictures.length - 1].id);
      return n;
    });
    const more = pictures.length === BATCH;
    found += matched;
    if (!more) break;
  }
  return found;
}

async function present(ctx: AppContext, rows: repo.MatchRow[]): Promise<DuplicateMatch[]> {
  const [pictures, peopleRows] = await Promise.all([
    media.picturesByIds(
      ctx,
      rows.flatMap((r) => [r.mediaId, r.otherMediaId]),
    ),
    repo.peopleByIds(
      ctx.db,
      rows.flatMap((r) => [r.userId, r.otherUserId]),
    ),
  ]);
  const people = new Map((await presentPeople(ctx, [...peopleRows.values()])).map((p) => [p.user_id, p]));
  const side = (mediaId: number, userId: number) => {
    const picture = pictures.get(mediaId);
    const user = people.get(userId);
    if (!picture || !user) return null;
    return {
      media_id: mediaId,
      type: picture.type,
      picture: picture.picture,
      uploaded_at: picture.createdAt.toISOString(),
      user,
    };
  };
  return rows.flatMap((r) => {
    const newer = side(r.mediaId, r.userId);
    const older = side(r.otherMediaId, r.otherUserId);
    if (!newer || !older) return [];
    return [{ id: r.id, distance: r.distance, status: r.status, created_at: r.createdAt.toISOString(), newer, older }];
  });
}

export async function listDuplicates(
  ctx: AppContext,
  status: 'open' | 'dismissed',
  page: number,
): Promise<DuplicatesPage> {
  const rows = await repo.matches(ctx.db, status, ADMIN_PAGE_SIZE + 1, (page - 1) * ADMIN_PAGE_SIZE);
  return { data: await present(ctx, rows.slice(0, ADMIN_PAGE_SIZE)), page, has_more: rows.length > ADMIN_PAGE_SIZE };
}

/** Not a stolen photo after all: the match leaves the queue (and the audit log says who decided). */
export async function dismissDuplicate(ctx: AppContext, actor: Actor, matchId: number): Promise<DuplicateMatch> {
  const now = ctx.now();
  const row = await ctx.db.transaction(async (tx) => {
    const match = await repo.findMatch(tx, matchId, true);
    if (!match) throw notFound();
    if (match.status !== 'open') throw ValidationError.field('match_id', msg('admin.duplicateDecided'));
    const done = await repo.dismissMatch(tx, match.id, actor.id, now);
    await writeAudit(tx, {
      actorId: actor.id,
      action: 'duplicate.dismiss',
      targetUserId: match.userId,
      data: {
        match_id: match.id,
        media_id: match.mediaId,
        other_media_id: match.otherMediaId,
        other_user_id: match.otherUserId,
      },
      before: { status: 'open' },
      after: { status: 'dismissed' },
      at: now,
    });
    return done;
  });
  const [presented] = await present(ctx, [row]);
  if (!presented) throw notFound();
  return presented;
}
