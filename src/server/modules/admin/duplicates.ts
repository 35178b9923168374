// Duplicate pictures across accounts (docs/decisions/0503): the media pipeline stores a 64-bit perceptual
// hash of every picture with four indexed 16-bit bands. A periodic scan walks the pictures once, in id
// order, and looks each one up among the older pictures with media.findSimilarImages (multi-index
// hashing: a handful of index lookups per picture, so it scales to millions). A near hash in another
// account is a possible stolen photo or impersonation, and waits in the admin's queue.
import { msg } from '#shared/api/messages.ts';
import { ADMIN_PAGE_SIZE, type DuplicateMatch, type DuplicatesPage } from '#shared/schemas/admin.ts';
import type { AppContext } from '../../context';
import { writeAudit } from '../../db/audit';
import { notFound, ValidationError } from '../../lib/errors';
import * as media from '../media/media.service';
import { presentPeople, type Actor } from './people.service';
import * as repo from './admin.repo';

/**
 * Bits two hashes may differ by and still count as the same picture. A resized, re-compressed copy lands
 * within 0-4 (tested); unrelated photos sit around 32. 6 keeps false matches rare.
 */
export const DUPLICATE_MAX_DISTANCE = 6;
const BATCH = 200;

/** Scans the pictures uploaded since the last scan; returns how many new matches it found. */
export async function scanDuplicates(ctx: AppContext, maxBatches = 50): Promise<number> {
  let found = 0;
  for (let i = 0; i < maxBatches; i++) {
    // Reads outside the transaction (PGlite has one connection: a query beside an open transaction
    // would wait for it); the transaction then moves the cursor only if nobody else moved it meanwhile.
    const cursor = await repo.readScanCursor(ctx.db);
    const pictures = await media.hashedPicturesAfter(ctx, cursor, BATCH);
    if (!pictures.length) break;
    const rows: Parameters<typeof repo.insertMatches>[1] = [];
    for (const p of pictures) {
      const similar = await media.findSimilarImages(ctx, p.phash, DUPLICATE_MAX_DISTANCE);
      for (const s of similar) {
        // Older pictures only (each pair once) and other accounts only (one's own avatar is in the gallery).
        if (s.mediaId >= p.id || s.userId === p.userId || s.type === 'video') continue;
        rows.push({
          mediaId: p.id,
          otherMediaId: s.mediaId,
          userId: p.userId,
          otherUserId: s.userId,
          distance: s.distance,
        });
      }
    }
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
