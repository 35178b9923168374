// The audit log (DESIGN.md: every admin action is written down): who did what to whom.
import type { Db, Tx } from './client';
import { auditLog } from './schema';

export async function writeAudit(
  db: Db | Tx,
  entry: { actorId: number | null; action: string; targetUserId: number; data?: Record<string, unknown> },
) {
  await db.insert(auditLog).values({ ...entry, data: entry.data ?? {} });
}
