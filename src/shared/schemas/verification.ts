// Verification request (spec section 4, DESIGN.md "Verification and moderation"): an avatar first, then
// a photo ID kept privately and deleted PHOTO_ID_RETENTION_DAYS after the decision.
import { z } from 'zod';
import { coercedId, id } from '../api/fields';
import { DECLINE_REASONS } from '../constants';

export const VERIFICATION_STATUSES = ['none', 'pending', 'verified', 'declined'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
export type DeclineReason = (typeof DECLINE_REASONS)[number];

/** GET /edit/getVerification/{id}: what /edit/verify/{id} shows. */
export const VerificationState = z.object({
  status: z.enum(VERIFICATION_STATUSES),
  has_avatar: z.boolean(),
  /** The latest request, if any. */
  request: z
    .object({
      id: z.number(),
      status: z.enum(['pending', 'verified', 'declined']),
      created_at: z.string(),
      decided_at: z.string().nullable(),
      decline_reason: z.enum(DECLINE_REASONS).nullable(),
      /** When the photo ID is (or was) deleted; null while undecided. */
      photo_id_delete_after: z.string().nullable(),
      photo_id_deleted: z.boolean(),
    })
    .nullable(),
  verified_at: z.string().nullable(),
  /** A new photo ID may be sent now (no avatar, pending or verified: no). */
  can_request: z.boolean(),
  review_hours: z.number(),
  retention_days: z.number(),
});
export type VerificationState = z.infer<typeof VerificationState>;
export const VerificationStateResponse = z.object({ data: VerificationState });

export const VerificationDecision = z.object({
  requestId: id(),
  decision: z.enum(['verified', 'declined']),
  reason: z.enum(DECLINE_REASONS).optional(),
});
export type VerificationDecision = z.infer<typeof VerificationDecision>;

export const PhotoIdParams = z.object({
  requestId: coercedId(),
});
