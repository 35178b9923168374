// What the in-process worker runs (lib/jobs.ts): queued job handlers and periodic tasks. One list for
// main.ts and for the tests that start the real server as a child process (crash and restart).
import type { JobHandler, PeriodicTask } from './lib/jobs';
import { purgeDeletedAccounts } from './modules/account/account.purge';
import { cleanupAuthData } from './modules/auth/session.service';
import { sendFailedMail } from './modules/auto-topup/auto-topup.mail';
import { FAILED_MAIL_JOB, runDueSlots } from './modules/auto-topup/scheduler.service';
import { HELP_MAIL_JOB, sendHelpMail } from './modules/help/help.service';
import { maintainEmbedded } from './db/maintenance';
import { refreshSearchWords } from './modules/directory/directory.service';
import { removeExpiredListings } from './modules/listings/listings.service';
import { mediaJobHandlers } from './modules/media/media.service';
import { adminJobHandlers } from './modules/admin/admin.mail';
import { snapshotMetrics } from './modules/admin/overview.service';
import { duplicateJobHandlers, rehashPictures, scanDuplicates } from './modules/admin/duplicates';
import { HOLD_MAIL_JOB, sendHoldMail, settleOpenPayments } from './modules/money/money.service';
import { deleteExpiredPhotoIds } from './modules/verification/verification.service';

export const jobHandlers: Record<string, JobHandler> = {
  ...mediaJobHandlers,
  ...adminJobHandlers,
  ...duplicateJobHandlers,
  [FAILED_MAIL_JOB]: sendFailedMail,
  [HELP_MAIL_JOB]: sendHelpMail,
  [HOLD_MAIL_JOB]: sendHoldMail,
};

/**
 * Each is tried after start (the first at 2 s, the next a second later, and so on: decision 0755), then on
 * its own clock, and runs once per period across instances (0005).
 */
export const periodicTasks: PeriodicTask[] = [
  { name: 'purge deleted accounts', everyMs: 60 * 60 * 1000, run: (c) => purgeDeletedAccounts(c) },
  { name: 'clean up sessions and links', everyMs: 60 * 60 * 1000, run: (c) => cleanupAuthData(c, c.now()) },
  // What profiles' text changes did to the word list since (0739): a few rows, nothing when nothing changed.
  { name: 'refresh search words', everyMs: 10 * 60 * 1000, run: (c) => refreshSearchWords(c.db) },
  { name: 'remove expired locations', everyMs: 5 * 60 * 1000, run: (c) => removeExpiredListings(c.db, c.now()) },
  { name: 'delete expired photo IDs', everyMs: 60 * 60 * 1000, run: (c) => deleteExpiredPhotoIds(c, c.now()) },
  // Also 2 s after start: what a crash left between a provider's answer and our ledger is settled.
  { name: 'settle open payments', everyMs: 60 * 1000, atEveryStart: true, run: (c) => settleOpenPayments(c) },
  // Each due slot exactly once, on any number of instances (docs/decisions/0402).
  { name: 'auto-topup slots', everyMs: 60 * 1000, run: (c) => runDueSlots(c) },
  // Pictures uploaded since the last scan, against all older ones (docs/decisions/0503).
  { name: 'duplicate pictures', everyMs: 5 * 60 * 1000, run: (c) => scanDuplicates(c) },
  // Pictures stored under an older perceptual hash, a batch a minute, each looked up again (0507).
  { name: 're-hash pictures', everyMs: 60 * 1000, run: (c) => rehashPictures(c) },
  // PGlite runs no autovacuum (docs/decisions/0744): its tables, one at a time, as autovacuum would. A
  // vacuum reads only pages changed since the last; an analysis samples every table (0.6 s at 10,000).
  { name: 'vacuum the embedded database', everyMs: 60 * 60 * 1000, run: (c) => maintainEmbedded(c, 'vacuum') },
  { name: 'analyze the embedded database', everyMs: 24 * 60 * 60 * 1000, run: (c) => maintainEmbedded(c, 'analyze') },
  { name: 'overview snapshots', everyMs: 60 * 60 * 1000, run: (c) => snapshotMetrics(c) },
];
