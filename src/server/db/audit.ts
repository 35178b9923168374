// The audit log (DESIGN.md: every admin action is written down): who did what to whom, when, and the
// state it changed before and after. Append-only (a trigger refuses UPDATE, DELETE and TRUNCATE). Write
// it in the transaction of the action, so a line exists exactly when the action happened.
import type { Db, Tx } from './client';
import { auditLog } from './schema';

export interface AuditEntry {
  actorId: number | null;
  action: string;
  targetUserId: number | null;
  data?: Record<string, unknown>;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /** The action's clock (ctx.now()): a test that moves the clock finds its own time here. */
  at: Date;
}

export async function writeAudit(db: Db | Tx, entry: AuditEntry) {
  await db.insert(auditLog).values({
    actorId: entry.actorId,
    action: entry.action,
    targetUserId: entry.targetUserId,
    data: entry.data ?? {},
    before: entry.before ?? null,
    after: entry.after ?? null,
    createdAt: entry.at,
  });
}
