// The admin's review queues (spec section 7 "Admin"; DESIGN.md "Verification and moderation"): the
// verification requests, decided with a notice and a mail to the advertiser, and the videos waiting for
// approval. The requests and videos themselves belong to verification.service and media.service.
import {
  ADMIN_PAGE_SIZE,
  type VerificationDataPage,
  type VerificationItem,
  type VerifyBody,
  type VerifyVideoBody,
  type VideosPage,
} from '#shared/schemas/admin.ts';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/errors';
import * as media from '../media/media.service';
import * as verification from '../verification/verification.service';
import { tellAdvertiser } from './admin.mail';
import { presentRequest } from './admin.presenter';
import { summariesById, type Actor } from './people.service';

// ---------------------------------------------------------------- verification

async function presentRequests(ctx: AppContext, rows: verification.QueuedRequest[]): Promise<VerificationItem[]> {
  const people = await summariesById(
    ctx,
    rows.map((r) => r.userId),
  );
  return rows.filter((r) => people.has(r.userId)).map((r) => presentRequest(r, people.get(r.userId)!));
}

export async function verificationQueue(
  ctx: AppContext,
  status: 'pending' | 'verified' | 'declined',
  page: number,
): Promise<VerificationDataPage> {
  const { rows, total, hasMore } = await verification.listRequests(ctx, { status, page, size: ADMIN_PAGE_SIZE });
  return { data: await presentRequests(ctx, rows), page, has_more: hasMore, total };
}

/** Verify, or decline with a reason: the advertiser sees it on /edit/verify, in a notice and by mail. */
export async function verify(ctx: AppContext, actor: Actor, body: VerifyBody): Promise<VerificationItem> {
  await verification.decideVerification(
    ctx,
    { requestId: body.request_id, actor, decision: body.decision, reason: body.reason },
    async (tx, decided) => {
      const at = decided.decidedAt ?? ctx.now();
      await tellAdvertiser(
        tx,
        decided.userId,
        body.decision === 'verified' ? { kind: 'verified' } : { kind: 'declined', reason: body.reason! },
        at,
      );
    },
  );
  const row = await verification.findQueuedRequest(ctx, body.request_id);
  const [item] = await presentRequests(ctx, row ? [row] : []);
  if (!item) throw notFound();
  return item;
}

// ---------------------------------------------------------------- videos

export async function videos(ctx: AppContext, page: number): Promise<VideosPage> {
  return media.listPendingVideos(ctx, { page, pageSize: ADMIN_PAGE_SIZE });
}

export async function verifyVideo(ctx: AppContext, actor: Actor, mediaId: number, body: VerifyVideoBody) {
  const done =
    body.decision === 'approved'
      ? await media.approveVideo(ctx, { mediaId, actor })
      : await media.rejectVideo(ctx, { mediaId, actor, reason: body.reason });
  const row = await media.picturesByIds(ctx, [mediaId]);
  return { id: done.id, user_id: row.get(mediaId)?.userId ?? 0, status: done.status };
}
