// Removes the data of deleted accounts once their purge_after has passed (spec: within 14 days).
// main.ts calls purgeDeletedAccounts from an interval; it is safe to run on several instances at once.
import type { AppContext } from '../../context';
import { FOREIGN_KEY_VIOLATION, pgErrorCode } from '../../db/client';
import * as repo from './account.repo';

export interface PurgeResult {
  /** Accounts removed with everything that cascades from them. */
  purged: number[];
  /** Accounts kept as anonymous tombstones because money records point at them. */
  anonymized: number[];
  failed: Array<{ id: number; error: string }>;
}

export async function purgeDeletedAccounts(ctx: AppContext, now: Date = ctx.now(), batch = 100): Promise<PurgeResult> {
  const result: PurgeResult = { purged: [], anonymized: [], failed: [] };
  for (const id of await repo.duePurges(ctx.db, now, batch)) {
    try {
      // Files first: if a delete fails the rows stay and the next run tries again, so no file is
      // ever left behind without a row that names it.
      const files = await repo.filesOf(ctx.db, id);
      for (const key of files.public) await ctx.media.delete('public', key);
      for (const key of files.private) await ctx.media.delete('private', key);
      const outcome = await ctx.db.transaction(async (tx) => {
        if (!(await repo.lockDuePurge(tx, id, now))) return 'skipped' as const;
        try {
          await tx.transaction(async (sp) => repo.deleteAccountRow(sp, id));
          return 'purged' as const;
        } catch (err) {
          if (pgErrorCode(err) !== FOREIGN_KEY_VIOLATION) throw err;
          await repo.anonymize(tx, id);
          return 'anonymized' as const;
        }
      });
      if (outcome !== 'skipped') result[outcome].push(id);
    } catch (err) {
      result.failed.push({ id, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return result;
}
