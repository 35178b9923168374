// The verification screens' answers and the admin queue's rows (src/shared/schemas/verification.ts) from
// the rows of verification.repo.ts: rows in, answers out.
import { DECLINE_REASONS, PHOTO_ID_RETENTION_DAYS, VERIFICATION_REVIEW_HOURS } from '#shared/constants.ts';
import type { DeclineReason, VerificationState } from '#shared/schemas/verification.ts';
import type * as repo from './verification.repo';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const isReason = (r: string | null): r is DeclineReason => !!r && (DECLINE_REASONS as readonly string[]).includes(r);

/** GET /api/edit/getVerification/{id}: the profile's status and its latest request. */
export function presentState(
  profile: NonNullable<Awaited<ReturnType<typeof repo.profileOf>>>,
  request: repo.RequestRow | null,
): VerificationState {
  const hasAvatar = profile.avatarMediaId !== null;
  return {
    status: profile.status,
    has_avatar: hasAvatar,
    request: request
      ? {
          id: request.id,
          status: request.status,
          created_at: request.createdAt.toISOString(),
          decided_at: iso(request.decidedAt),
          decline_reason: isReason(request.declineReason) ? request.declineReason : null,
          photo_id_delete_after: iso(request.photoIdDeleteAfter),
          photo_id_deleted: request.photoIdKey === null,
        }
      : null,
    verified_at: iso(profile.verifiedAt),
    can_request: hasAvatar && profile.status !== 'pending' && profile.status !== 'verified',
    review_hours: VERIFICATION_REVIEW_HOURS,
    retention_days: PHOTO_ID_RETENTION_DAYS,
  };
}

export interface QueuedRequest {
  id: number;
  userId: number;
  status: 'pending' | 'verified' | 'declined';
  createdAt: Date;
  decidedAt: Date | null;
  declineReason: DeclineReason | null;
  hasPhotoId: boolean;
  photoIdDeleteAfter: Date | null;
}

/** A request as the admin queue reads it. */
export const presentQueued = (r: repo.RequestRow): QueuedRequest => ({
  id: r.id,
  userId: r.userId,
  status: r.status,
  createdAt: r.createdAt,
  decidedAt: r.decidedAt,
  declineReason: isReason(r.declineReason) ? r.declineReason : null,
  hasPhotoId: r.photoIdKey !== null,
  photoIdDeleteAfter: r.photoIdDeleteAfter,
});
