// Rows of the admin panel as the API sends them (#shared/schemas/admin.ts): people, verification requests,
// reports and audit lines. The services fetch what these need (avatars, the people a row names).
import { URGENT_FEEDBACK_REASONS } from '#shared/constants.ts';
import type { AdminUserSummary, AuditEntry, Report, VerificationItem } from '#shared/schemas/admin.ts';
import type { Picture } from '#shared/schemas/media.ts';
import type { QueuedRequest } from '../verification/verification.service';
import type * as repo from './admin.repo';

const HOUR_MS = 3_600_000;
export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function presentPerson(r: repo.PersonRow, avatar: Picture | null): AdminUserSummary {
  return {
    user_id: r.id,
    screen_name: r.screenName,
    username: r.username,
    email: r.email,
    phone: r.phone,
    city: r.city,
    role: r.role,
    status: r.status,
    flagged: r.flagged ?? false,
    listed: r.listed ?? false,
    verification_status: r.verificationStatus ?? 'none',
    avatar,
    created_at: r.createdAt.toISOString(),
  };
}

export function presentRequest(r: QueuedRequest, user: AdminUserSummary): VerificationItem {
  return {
    id: r.id,
    status: r.status,
    user,
    created_at: r.createdAt.toISOString(),
    decided_at: iso(r.decidedAt),
    decline_reason: r.declineReason,
    photo_id_url: r.hasPhotoId ? `/api/admin/photo-id/${r.id}` : null,
    photo_id_delete_after: iso(r.photoIdDeleteAfter),
  };
}

const isUrgent = (reason: string) => (URGENT_FEEDBACK_REASONS as readonly string[]).includes(reason);

/** `now` in milliseconds: the report's age in whole hours. */
export function presentReport(r: repo.ReportRow, profile: AdminUserSummary | null, now: number): Report {
  return {
    id: r.id,
    reason: r.reason,
    urgent: r.priority > 0 || isUrgent(r.reason),
    message: r.message,
    contact: r.contact,
    profile,
    created_at: r.createdAt.toISOString(),
    age_hours: Math.max(0, Math.floor((now - r.createdAt.getTime()) / HOUR_MS)),
    status: r.status,
    resolved_at: iso(r.resolvedAt),
    resolved_by: r.resolvedBy,
    resolution_action: r.resolutionAction,
    resolution_note: r.resolutionNote,
  };
}

type AuditRow = Awaited<ReturnType<typeof repo.auditEntries>>[number];
type Named = AuditEntry['actor'];

export function presentAuditEntry(r: AuditRow, person: (id: number | null) => Named): AuditEntry {
  return {
    id: Number(r.id),
    action: r.action,
    actor: person(r.actorId),
    target: person(r.targetUserId),
    data: r.data,
    before: r.before ?? null,
    after: r.after ?? null,
    created_at: r.createdAt.toISOString(),
  };
}
