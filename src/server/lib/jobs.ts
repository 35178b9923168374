// Background jobs: a table and a worker that claims due rows with FOR UPDATE SKIP LOCKED, so any
// number of instances share the queue and each job runs once. A claimed job is leased for a while;
// a worker that dies mid-job leaves the lease to expire and another worker retries it.
import { sql } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../db/client';
import type { AppContext } from '../context';

export type JobHandler = (ctx: AppContext, payload: Record<string, unknown>) => Promise<void>;

export interface ClaimedJob {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
}

const LEASE_SECONDS = 300;
const MAX_ATTEMPTS = 5;

/**
 * In a transaction (`Tx`), the job exists only if the transaction commits. `runAt` is on the app's clock
 * (ctx.now() for "now"), the clock runDueJobs claims by.
 */
export async function enqueue(db: Db | Tx, kind: string, payload: Record<string, unknown>, runAt: Date) {
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`insert into jobs (kind, payload, run_at) values (${kind}, ${JSON.stringify(payload)}::jsonb, ${runAt.toISOString()}::timestamptz) returning id`,
  );
  return Number(row.id);
}

export async function claimJobs(db: Db, now: Date, limit = 10): Promise<ClaimedJob[]> {
  const rows = await queryRows<ClaimedJob>(
    db,
    sql`
    update jobs set locked_until = ${now.toISOString()}::timestamptz + make_interval(secs => ${LEASE_SECONDS}),
                    attempts = attempts + 1
    where id in (
      select id from jobs
      where status = 'queued' and run_at <= ${now.toISOString()}::timestamptz
        and (locked_until is null or locked_until < ${now.toISOString()}::timestamptz)
      order by run_at, id
      limit ${limit}
      for update skip locked)
    returning id, kind, payload, attempts`,
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

async function finish(db: Db, job: ClaimedJob, now: Date, error?: unknown) {
  if (!error) {
    await db.execute(sql`update jobs set status = 'done', locked_until = null, last_error = null where id = ${job.id}`);
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (job.attempts >= MAX_ATTEMPTS) {
    await db.execute(
      sql`update jobs set status = 'failed', locked_until = null, last_error = ${message} where id = ${job.id}`,
    );
  } else {
    // Exponential back-off: 1, 2, 4, 8 minutes.
    const retryAt = new Date(now.getTime() + 60_000 * 2 ** (job.attempts - 1));
    await db.execute(
      sql`update jobs set locked_until = null, run_at = ${retryAt.toISOString()}::timestamptz, last_error = ${message} where id = ${job.id}`,
    );
  }
}

/** Claims and runs what is due now; returns how many jobs ran. */
export async function runDueJobs(ctx: AppContext, handlers: Record<string, JobHandler>): Promise<number> {
  const now = ctx.now();
  const jobs = await claimJobs(ctx.db, now);
  for (const job of jobs) {
    const handler = handlers[job.kind];
    try {
      if (!handler) throw new Error(`No handler for job kind ${job.kind}`);
      await handler(ctx, job.payload);
      await finish(ctx.db, job, now);
    } catch (err) {
      await finish(ctx.db, job, now, err);
    }
  }
  return jobs.length;
}

export interface PeriodicTask {
  name: string;
  everyMs: number;
  /** Must be idempotent: several instances may run it around the same time. */
  run: (ctx: AppContext) => Promise<unknown>;
}

/** Starts the in-process worker: queued jobs every few seconds, periodic tasks on their own clocks. */
export function startWorker(
  ctx: AppContext,
  opts: {
    handlers: Record<string, JobHandler>;
    tasks: PeriodicTask[];
    pollMs?: number;
    log: (msg: string, err?: unknown) => void;
  },
) {
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;
  const guard = (name: string, fn: () => Promise<unknown>) => {
    let running = false;
    return async () => {
      if (running || stopped) return;
      running = true;
      try {
        await fn();
      } catch (err) {
        opts.log(`background task ${name} failed`, err);
      } finally {
        running = false;
      }
    };
  };
  const poll = guard('jobs', () => runDueJobs(ctx, opts.handlers));
  timers.push(setInterval(() => void poll(), opts.pollMs ?? 5000));
  for (const task of opts.tasks) {
    const run = guard(task.name, () => task.run(ctx));
    timers.push(setTimeout(() => void run(), 2000));
    timers.push(setInterval(() => void run(), task.everyMs));
  }
  for (const t of timers) t.unref();
  return () => {
    stopped = true;
    for (const t of timers) clearInterval(t);
  };
}
