// Admin calls (spec section 7 "Admin"; DESIGN.md "Verification and moderation"): the overview, the
// verification and video queues, user search, the admin modal (getUserData, flag), warn, the report
// queue, duplicate pictures and the audit log. Bodies are strict: an unknown key is a 422.
import { z } from 'zod';
import { blankMessage } from '../api/errors';
import { id, isoDay, optionalString, requiredString, text } from '../api/fields';
import { DECLINE_REASONS, FEEDBACK_REASONS } from '../constants';
import { MEDIA_TYPES, Picture } from './media';
import { messageText } from '../api/messages';

export const ADMIN_PAGE_SIZE = 20;

/** What an admin may do about a report (besides writing a note). */
export const REPORT_ACTIONS = ['none', 'hide', 'flag', 'warn'] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];

const page = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), page: z.number(), has_more: z.boolean() });

// ---------------------------------------------------------------- users

/** One line of the user search, and the people named in the other queues. */
export const AdminUserSummary = z.object({
  user_id: z.number(),
  screen_name: z.string().nullable(),
  username: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  city: z.string().nullable(),
  role: z.enum(['advertiser', 'admin']),
  status: z.enum(['active', 'suspended', 'deleted']),
  flagged: z.boolean(),
  listed: z.boolean(),
  verification_status: z.enum(['none', 'pending', 'verified', 'declined']),
  avatar: Picture.nullable(),
  created_at: z.string(),
});
export type AdminUserSummary = z.infer<typeof AdminUserSummary>;

/** GET /api/admin/getUserData/{id}: the spec's user_id, screen_name, flagged, and what the modal shows. */
export const AdminUser = AdminUserSummary.extend({
  mobile: z.string().nullable(),
  complete: z.boolean(),
  ad_status: z.enum(['visible', 'hidden']),
  verified_at: z.string().nullable(),
  last_seen_at: z.string().nullable(),
  balance: z.number(),
  media_count: z.number(),
  open_reports: z.number(),
});
export type AdminUser = z.infer<typeof AdminUser>;
export const AdminUserResponse = z.object({ data: AdminUser });
export type AdminUserResponse = z.infer<typeof AdminUserResponse>;

/** POST /api/admin/search?page: screen name, email, login, phone, id or city; no minimum length. */
export const AdminSearchBody = z.strictObject({
  q: text('Search', 200).trim().default(''),
});
export type AdminSearchBody = z.infer<typeof AdminSearchBody>;
export const AdminSearchPage = page(AdminUserSummary);
export type AdminSearchPage = z.infer<typeof AdminSearchPage>;

/** POST /api/admin/flag: without `flagged` it toggles (spec section 4); with it, it sets. */
export const FlagBody = z.strictObject({
  user_id: id(),
  flagged: z.boolean().optional(),
});
export type FlagBody = z.infer<typeof FlagBody>;

/** GET /api/admin/warn/{id}: every picture and video is gone; the warning went by email and notice. */
export const WarnResponse = z.object({ data: z.object({ user: AdminUser, deleted: z.number() }) });

// ---------------------------------------------------------------- verification

export const VERIFICATION_QUEUE_STATUSES = ['pending', 'verified', 'declined'] as const;

/** POST /api/admin/getVerificationData?page, body {status}: pending unless asked otherwise. */
export const VerificationDataBody = z.strictObject({
  status: z.enum(VERIFICATION_QUEUE_STATUSES).default('pending'),
});
export type VerificationDataBody = z.infer<typeof VerificationDataBody>;

export const VerificationItem = z.object({
  id: z.number(),
  status: z.enum(VERIFICATION_QUEUE_STATUSES),
  user: AdminUserSummary,
  created_at: z.string(),
  decided_at: z.string().nullable(),
  decline_reason: z.enum(DECLINE_REASONS).nullable(),
  /** Authorised URL of the photo ID (admins only); null once deleted. */
  photo_id_url: z.string().nullable(),
  photo_id_delete_after: z.string().nullable(),
});
export type VerificationItem = z.infer<typeof VerificationItem>;
export const VerificationDataPage = page(VerificationItem).extend({ total: z.number() });
export type VerificationDataPage = z.infer<typeof VerificationDataPage>;

/** POST /api/admin/verify: verify, or decline with one of the spec's six reasons. */
export const VerifyBody = z
  .strictObject({
    request_id: id(),
    decision: z.enum(['verified', 'declined']),
    reason: z.enum(DECLINE_REASONS).optional(),
  })
  .superRefine((v, c) => {
    if (v.decision === 'declined' && !v.reason)
      c.addIssue({ code: 'custom', path: ['reason'], message: blankMessage('Reason') });
  });
export type VerifyBody = z.infer<typeof VerifyBody>;
export const VerifyResponse = z.object({ data: VerificationItem });

// ---------------------------------------------------------------- videos

export const PendingVideo = z.object({
  id: z.number(),
  user_id: z.number(),
  screen_name: z.string().nullable(),
  username: z.string(),
  duration: z.number().nullable(),
  created_at: z.string(),
  /** Authorised route that streams the private file to an admin. */
  url: z.string(),
});
export type PendingVideo = z.infer<typeof PendingVideo>;
export const VideosPage = page(PendingVideo).extend({ total: z.number() });
export type VideosPage = z.infer<typeof VideosPage>;

/** POST /api/admin/verifyVideo/{id}. */
export const VerifyVideoBody = z.strictObject({
  decision: z.enum(['approved', 'rejected']),
  reason: optionalString('Reason', 500),
});
export type VerifyVideoBody = z.infer<typeof VerifyVideoBody>;
export const VerifyVideoResponse = z.object({
  data: z.object({ id: z.number(), user_id: z.number(), status: z.string() }),
});

// ---------------------------------------------------------------- reports

export const REPORT_STATUSES = ['open', 'resolved'] as const;

/** POST /api/admin/getReports?page: safeguarding reasons first, then the oldest. */
export const ReportsBody = z.strictObject({
  status: z.enum(REPORT_STATUSES).default('open'),
});
export type ReportsBody = z.infer<typeof ReportsBody>;

export const Report = z.object({
  id: z.number(),
  reason: z.enum(FEEDBACK_REASONS).or(z.string()),
  urgent: z.boolean(),
  message: z.string().nullable(),
  contact: z.string().nullable(),
  /** The reported profile; null when the report names none (or it was purged). */
  profile: AdminUserSummary.nullable(),
  created_at: z.string(),
  /** Whole hours since the report came in. */
  age_hours: z.number(),
  status: z.enum(REPORT_STATUSES),
  resolved_at: z.string().nullable(),
  resolved_by: z.number().nullable(),
  resolution_action: z.enum(REPORT_ACTIONS).nullable(),
  resolution_note: z.string().nullable(),
});
export type Report = z.infer<typeof Report>;
export const ReportsPage = page(Report).extend({ total: z.number() });
export type ReportsPage = z.infer<typeof ReportsPage>;

/** POST /api/admin/resolveReport: a note, and what was done (warn needs a profile). */
export const ResolveReportBody = z.strictObject({
  report_id: id(),
  action: z.enum(REPORT_ACTIONS),
  note: requiredString('Note', 2000),
});
export type ResolveReportBody = z.infer<typeof ResolveReportBody>;
export const ResolveReportResponse = z.object({ data: Report });

// ---------------------------------------------------------------- duplicate pictures

export const DUPLICATE_STATUSES = ['open', 'dismissed'] as const;

export const DuplicatesQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  status: z.enum(DUPLICATE_STATUSES).default('open'),
});

const DuplicateSide = z.object({
  media_id: z.number(),
  type: z.enum(MEDIA_TYPES),
  picture: Picture,
  uploaded_at: z.string(),
  user: AdminUserSummary,
});

export const DuplicateMatch = z.object({
  id: z.number(),
  /** Hamming distance of the two 64-bit perceptual hashes (0 = the same picture). */
  distance: z.number(),
  status: z.enum(DUPLICATE_STATUSES),
  created_at: z.string(),
  /** The newer upload, and the older picture it resembles. */
  newer: DuplicateSide,
  older: DuplicateSide,
});
export type DuplicateMatch = z.infer<typeof DuplicateMatch>;
export const DuplicatesPage = page(DuplicateMatch);
export type DuplicatesPage = z.infer<typeof DuplicatesPage>;

/** POST /api/admin/dismissDuplicate: not the same person's stolen photo (a shared studio shot...). */
export const DismissDuplicateBody = z.strictObject({ match_id: id() });
export const DismissDuplicateResponse = z.object({ data: DuplicateMatch });
/** POST /api/admin/scanDuplicates: how many new matches the scan found. */
export const ScanDuplicatesResponse = z.object({ data: z.object({ found: z.number() }) });

// ---------------------------------------------------------------- audit log

/** POST /api/admin/getAuditLog?page: newest first, filtered by any of these. */
export const AuditLogBody = z.strictObject({
  /** An action (`user.flag`) or its family (`user`, `verification`). */
  action: z
    .string()
    .trim()
    .max(60)
    .regex(/^[a-z_.]*$/i, messageText('validation.actionChars'))
    .optional(),
  actor_id: id().optional(),
  target_user_id: id().optional(),
  /** ISO dates (UTC days), inclusive. */
  from: isoDay().optional(),
  until: isoDay().optional(),
});
export type AuditLogBody = z.infer<typeof AuditLogBody>;

const Person = z.object({ id: z.number(), username: z.string().nullable(), screen_name: z.string().nullable() });

export const AuditEntry = z.object({
  id: z.number(),
  action: z.string(),
  actor: Person.nullable(),
  target: Person.nullable(),
  data: z.record(z.string(), z.unknown()),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;
export const AuditLogPage = page(AuditEntry);
export type AuditLogPage = z.infer<typeof AuditLogPage>;

// ---------------------------------------------------------------- overview

/** A 30-day series: one value per day of `days`, oldest first (null: not recorded that day). */
const Series = z.array(z.number().nullable());

/** GET /api/admin/getOverview. Days are UTC calendar days; amounts in minor units of `currency`. */
export const Overview = z.object({
  days: z.array(z.string()),
  currency: z.string(),
  counts: z.object({
    accounts: z.number(),
    new_accounts_30d: z.number(),
    listed_profiles: z.number(),
    pending_verifications: z.number(),
    /** Hours since the oldest pending request came in (null when none waits). */
    oldest_pending_verification_hours: z.number().nullable(),
    pending_videos: z.number(),
    open_reports: z.number(),
    open_reports_by_reason: z.record(z.string(), z.number()),
    open_duplicates: z.number(),
    credits_loaded_30d: z.number(),
    credits_spent_30d: z.number(),
    active_timers: z.number(),
    failed_runs_30d: z.number(),
  }),
  series: z.object({
    new_accounts: Series,
    listed_profiles: Series,
    pending_verifications: Series,
    pending_videos: Series,
    open_reports: Series,
    credits_loaded: Series,
    credits_spent: Series,
    active_timers: Series,
    failed_runs: Series,
  }),
});
export type Overview = z.infer<typeof Overview>;
export const OverviewResponse = z.object({ data: Overview });
export type OverviewResponse = z.infer<typeof OverviewResponse>;
