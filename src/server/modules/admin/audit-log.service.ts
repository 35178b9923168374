// The audit log as the admin reads it: newest first, filtered by action family, actor, target and dates,
// each line naming its people (an account since deleted is still named by its id). Lines are written by
// writeAudit (db/audit.ts) in the transaction of the action they record.
import { ADMIN_PAGE_SIZE, type AuditLogBody, type AuditLogPage } from '#shared/schemas/admin.ts';
import type { AppContext } from '../../context';
import { presentAuditEntry } from './admin.presenter';
import * as repo from './admin.repo';

const DAY_MS = 86_400_000;

export async function auditLog(ctx: AppContext, body: AuditLogBody, page: number): Promise<AuditLogPage> {
  const rows = await repo.auditEntries(
    ctx.db,
    {
      action: body.action || undefined,
      actorId: body.actor_id,
      targetUserId: body.target_user_id,
      from: body.from ? new Date(`${body.from}T00:00:00Z`) : undefined,
      until: body.until ? new Date(new Date(`${body.until}T00:00:00Z`).getTime() + DAY_MS) : undefined,
    },
    ADMIN_PAGE_SIZE + 1,
    (page - 1) * ADMIN_PAGE_SIZE,
  );
  const shown = rows.slice(0, ADMIN_PAGE_SIZE);
  const people = await repo.peopleByIds(ctx.db, [
    ...shown.flatMap((r) => (r.actorId ? [r.actorId] : [])),
    ...shown.flatMap((r) => (r.targetUserId ? [r.targetUserId] : [])),
  ]);
  const person = (id: number | null) => {
    if (!id) return null;
    const p = people.get(id);
    // The account may be gone: the line still names its id.
    return { id, username: p?.username ?? null, screen_name: p?.screenName ?? null };
  };
  const data = shown.map((r) => presentAuditEntry(r, person));
  return { data, page, has_more: rows.length > ADMIN_PAGE_SIZE };
}
