// Verification requests (spec section 4, DESIGN.md "Verification and moderation"): an avatar first; the
// photo ID is re-encoded without metadata and kept in the private store (never under a public URL),
// read only by admins, and deleted PHOTO_ID_RETENTION_DAYS after the decision. A declined advertiser may
// send a new ID (or change the avatar) and ask again.
import crypto from 'node:crypto';
import { msg } from '#shared/api/messages.ts';
import { PHOTO_ID_RETENTION_DAYS, VERIFICATION_REVIEW_HOURS } from '#shared/constants.ts';
import type { DeclineReason, VerificationState } from '#shared/schemas/verification.ts';
import type { AppContext } from '../../context';
import { lockAccount } from '../../db/account-lock';
import { writeAudit } from '../../db/audit';
import type { Tx } from '../../db/client';
import { notFound, ValidationError } from '../../lib/errors';
import { MediaRejected, processImage } from '../media/image-pipeline';
import { presentQueued, presentState, type QueuedRequest } from './verification.presenter';
import * as repo from './verification.repo';

export type { QueuedRequest } from './verification.presenter';

const DAY_MS = 86_400_000;
/** Enough to read the ID; no need to keep every pixel of a 48-megapixel phone photo. */
const PHOTO_ID_WIDTH = 2000;

export async function getVerification(ctx: AppContext, userId: number): Promise<VerificationState> {
  const [profile, request] = await Promise.all([repo.profileOf(ctx.db, userId), repo.latestRequest(ctx.db, userId)]);
  if (!profile) throw notFound();
  return presentState(profile, request ?? null);
}

/** Why a new request is refused now, or null when it may be sent. */
function refusal(profile: NonNullable<Awaited<ReturnType<typeof repo.profileOf>>>) {
  if (profile.avatarMediaId === null) return msg('verification.needAvatar');
  if (profile.status === 'pending') return msg('verification.pending', { hours: VERIFICATION_REVIEW_HOURS });
  if (profile.status === 'verified') return msg('verification.alreadyVerified');
  return null;
}

/** The advertiser sends a photo ID: a new pending request. */
export async function requestVerification(
  ctx: AppContext,
  input: { userId: number; body: Buffer; declaredType: string },
): Promise<VerificationState> {
  const { userId } = input;
  const profile = await repo.profileOf(ctx.db, userId);
  if (!profile) throw notFound();
  // Before the file is even decoded: "You must first upload an avatar." is the answer, not a file error.
  const early = refusal(profile);
  if (early) throw new ValidationError({ avatar: [early] }, early);

  const image = await processImage(input.body, input.declaredType, { widths: [PHOTO_ID_WIDTH] }).catch((err) => {
    if (err instanceof MediaRejected) throw ValidationError.field('file', err.reason);
    throw err;
  });
  const jpeg = image.variants.find((v) => v.format === 'jpeg')!;
  const key = `photo-id/${userId}/${crypto.randomBytes(12).toString('hex')}.jpg`;
  try {
    await ctx.db.transaction(async (tx) => {
      if (!(await lockAccount(tx, userId))) throw notFound();
      // Again under the lock: two requests sent at once make one.
      const late = refusal((await repo.profileOf(tx, userId))!);
      if (late) throw new ValidationError({ avatar: [late] }, late);
      await ctx.media.put('private', key, jpeg.body, 'image/jpeg');
      await repo.insertRequest(tx, userId, key, ctx.now());
      await repo.setProfileStatus(tx, userId, 'pending', null);
    });
  } catch (err) {
    await ctx.media.delete('private', key);
    throw err;
  }
  return getVerification(ctx, userId);
}

/**
 * Admin decision on a pending request. Verified: the green check with today's date. Declined: one of the
 * spec's reasons. Either way the photo ID is deleted PHOTO_ID_RETENTION_DAYS later.
 */
export async function decideVerification(
  ctx: AppContext,
  input: {
    requestId: number;
    actor: { id: number; role: 'advertiser' | 'admin' };
    decision: 'verified' | 'declined';
    reason?: DeclineReason;
  },
  /** Runs in the decision's transaction (the admin screen queues the advertiser's mail and notice). */
  within?: (tx: Tx, decided: repo.RequestRow) => Promise<void>,
) {
  if (input.decision === 'declined' && !input.reason)
    throw ValidationError.field('reason', msg('verification.reasonRequired'));
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const request = await repo.findRequest(tx, input.requestId, true);
    if (!request) throw notFound();
    if (request.status !== 'pending') throw ValidationError.field('id', msg('verification.notPending'));
    const decided = await repo.decide(tx, request.id, {
      status: input.decision,
      declineReason: input.decision === 'declined' ? input.reason! : null,
      decidedBy: input.actor.id,
      decidedAt: now,
      photoIdDeleteAfter: new Date(now.getTime() + PHOTO_ID_RETENTION_DAYS * DAY_MS),
    });
    await repo.setProfileStatus(tx, request.userId, input.decision, input.decision === 'verified' ? now : null);
    await writeAudit(tx, {
      actorId: input.actor.id,
      action: `verification.${input.decision}`,
      targetUserId: request.userId,
      data: { requestId: request.id, reason: input.reason ?? null },
      before: { status: request.status },
      after: { status: decided.status, reason: decided.declineReason, decided_at: now.toISOString() },
      at: now,
    });
    await within?.(tx, decided);
    return decided;
  });
}

/** Admin: the photo ID of a request, from the private store (an audit line says who looked). */
export async function readPhotoId(ctx: AppContext, requestId: number, actorId: number) {
  const request = await repo.findRequest(ctx.db, requestId);
  if (!request?.photoIdKey) throw notFound();
  const body = await ctx.media.get('private', request.photoIdKey);
  if (!body) throw notFound();
  await writeAudit(ctx.db, {
    actorId,
    action: 'verification.viewPhotoId',
    targetUserId: request.userId,
    data: { requestId },
    at: ctx.now(),
  });
  return { body, contentType: 'image/jpeg' };
}

/** Periodic task: photo IDs whose retention is over leave the store; the request keeps its decision. */
export async function deleteExpiredPhotoIds(ctx: AppContext, now: Date = ctx.now()): Promise<number> {
  let deleted = 0;
  for (;;) {
    const due = await repo.expiredPhotoIds(ctx.db, now, 100);
    for (const { id, key } of due) {
      await ctx.media.delete('private', key!);
      await repo.forgetPhotoId(ctx.db, id);
      deleted++;
    }
    if (due.length < 100) return deleted;
  }
}

// ---------------------------------------------------------------- the admin queue

/** Requests by status: pending oldest first (the 24-hour promise), decided ones newest first. */
export async function listRequests(
  ctx: AppContext,
  input: { status: 'pending' | 'verified' | 'declined'; page: number; size: number },
): Promise<{ rows: QueuedRequest[]; total: number; hasMore: boolean }> {
  const [rows, total] = await Promise.all([
    repo.requestsByStatus(ctx.db, input.status, input.size + 1, (input.page - 1) * input.size),
    repo.countByStatus(ctx.db, input.status),
  ]);
  return { rows: rows.slice(0, input.size).map(presentQueued), total, hasMore: rows.length > input.size };
}

export async function findQueuedRequest(ctx: AppContext, requestId: number): Promise<QueuedRequest | null> {
  const row = await repo.findRequest(ctx.db, requestId);
  return row ? presentQueued(row) : null;
}

/** Pending requests now, the oldest one's arrival, and how many were pending at the end of each day. */
export async function pendingStats(ctx: AppContext, dayEnds: Date[]) {
  const [count, oldest, series] = await Promise.all([
    repo.countByStatus(ctx.db, 'pending'),
    repo.oldestPending(ctx.db),
    repo.pendingAt(ctx.db, dayEnds),
  ]);
  return { count, oldest, series };
}
