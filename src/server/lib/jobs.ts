// Background jobs: a table and a worker that claims due rows with FOR UPDATE SKIP LOCKED, so any
// number of instances share the queue and each job runs once. A claimed job is leased for
// JOB_LEASE_SECONDS and the lease is renewed while the job runs: a worker that dies mid-job leaves the
// lease to expire within seconds and another worker retries it; a worker that stops (SIGTERM) hands
// its job back at once (docs/decisions/0005).
import { sql } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../db/client';
import type { AppContext } from '../context';

export interface JobRun {
  /** Aborted when the job is handed back (shutdown) or its lease was lost: its outcome will not count. */
  signal: AbortSignal;
}

export type JobHandler = (ctx: AppContext, payload: Record<string, unknown>, run: JobRun) => Promise<void>;

export interface ClaimedJob {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  /**
   * The lease's end as PostgreSQL wrote it (text keeps the microseconds). Every later write of the
   * worker names it, so a worker whose lease was taken over changes nothing.
   */
  lease: string;
}

const DEFAULT_LEASE_SECONDS = 30;
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

export async function claimJobs(
  db: Db,
  now: Date,
  limit = 10,
  leaseSeconds = DEFAULT_LEASE_SECONDS,
): Promise<ClaimedJob[]> {
  const rows = await queryRows<ClaimedJob>(
    db,
    sql`
    update jobs set locked_until = ${now.toISOString()}::timestamptz + make_interval(secs => ${leaseSeconds}),
                    attempts = attempts + 1
    where id in (
      select id from jobs
      where status = 'queued' and run_at <= ${now.toISOString()}::timestamptz
        and (locked_until is null or locked_until < ${now.toISOString()}::timestamptz)
      order by run_at, id
      limit ${limit}
      for update skip locked)
    returning id, kind, payload, attempts, locked_until::text as lease`,
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** Extends the lease from `now`; false when the job is no longer this worker's (its lease ran out and was taken). */
export async function renewLease(db: Db, job: ClaimedJob, now: Date, leaseSeconds: number): Promise<boolean> {
  const [row] = await queryRows<{ lease: string }>(
    db,
    sql`update jobs set locked_until = ${now.toISOString()}::timestamptz + make_interval(secs => ${leaseSeconds})
        where id = ${job.id} and status = 'queued' and locked_until = ${job.lease}::timestamptz
        returning locked_until::text as lease`,
  );
  if (!row) return false;
  job.lease = row.lease;
  return true;
}

/** Gives the job back unfinished: due again at once for any worker, and this attempt does not count. */
export async function handBack(db: Db, job: ClaimedJob): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`update jobs set locked_until = null, attempts = greatest(attempts - 1, 0)
        where id = ${job.id} and status = 'queued' and locked_until = ${job.lease}::timestamptz
        returning id`,
  );
  return rows.length > 0;
}

async function finish(db: Db, job: ClaimedJob, now: Date, error?: unknown) {
  const mine = sql`id = ${job.id} and status = 'queued' and locked_until = ${job.lease}::timestamptz`;
  if (!error) {
    await db.execute(sql`update jobs set status = 'done', locked_until = null, last_error = null where ${mine}`);
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (job.attempts >= MAX_ATTEMPTS) {
    await db.execute(
      sql`update jobs set status = 'failed', locked_until = null, last_error = ${message} where ${mine}`,
    );
  } else {
    // Exponential back-off: 1, 2, 4, 8 minutes.
    const retryAt = new Date(now.getTime() + 60_000 * 2 ** (job.attempts - 1));
    await db.execute(
      sql`update jobs set locked_until = null, run_at = ${retryAt.toISOString()}::timestamptz, last_error = ${message} where ${mine}`,
    );
  }
}

export interface RunOptions {
  /** Stops claiming; the running job is handed back at once (shutdown). */
  signal?: AbortSignal;
  /** Called with each job as soon as it is claimed (the worker's record of what it holds). */
  onClaim?: (job: ClaimedJob) => void;
  log?: (msg: string, err?: unknown) => void;
  /** Called on a stop with the write of the hand-back, which resolves once the row is given back. */
  onHandBack?: (written: Promise<unknown>) => void;
}

/** Claims and runs what is due now, one job at a time (only the running job holds a lease); returns how many ran. */
export async function runDueJobs(
  ctx: AppContext,
  handlers: Record<string, JobHandler>,
  opts: RunOptions = {},
): Promise<number> {
  const leaseSeconds = ctx.env.JOB_LEASE_SECONDS ?? DEFAULT_LEASE_SECONDS;
  let ran = 0;
  while (ran < 10 && !opts.signal?.aborted) {
    const [job] = await claimJobs(ctx.db, ctx.now(), 1, leaseSeconds);
    if (!job) break;
    ran++;
    opts.onClaim?.(job);
    await runClaimed(ctx, handlers, job, leaseSeconds, opts);
  }
  return ran;
}

async function runClaimed(
  ctx: AppContext,
  handlers: Record<string, JobHandler>,
  job: ClaimedJob,
  leaseSeconds: number,
  opts: RunOptions,
) {
  const run = new AbortController();
  // Renewals and the hand-back write one after the other, so a renewal cannot overtake a hand-back.
  let writes: Promise<unknown> = Promise.resolve();
  const serial = (fn: () => Promise<unknown>) =>
    (writes = writes.then(fn).catch((err) => opts.log?.('job lease', err)));
  const renew = setInterval(
    () =>
      void serial(async () => {
        if (run.signal.aborted) return;
        if (!(await renewLease(ctx.db, job, ctx.now(), leaseSeconds))) run.abort('lease lost');
      }),
    (leaseSeconds * 1000) / 3,
  );
  renew.unref();
  const onStop = () =>
    opts.onHandBack?.(
      serial(async () => {
        if (run.signal.aborted) return;
        run.abort('handed back');
        await handBack(ctx.db, job);
      }),
    );
  if (opts.signal?.aborted) onStop();
  else opts.signal?.addEventListener('abort', onStop, { once: true });
  const started = ctx.now();
  try {
    const handler = handlers[job.kind];
    if (!handler) throw new Error(`No handler for job kind ${job.kind}`);
    await handler(ctx, job.payload, { signal: run.signal });
    clearInterval(renew);
    await writes;
    if (!run.signal.aborted) await finish(ctx.db, job, started);
  } catch (err) {
    clearInterval(renew);
    await writes;
    if (!run.signal.aborted) await finish(ctx.db, job, started, err);
  } finally {
    clearInterval(renew);
    opts.signal?.removeEventListener('abort', onStop);
  }
}

export interface PeriodicTask {
  name: string;
  everyMs: number;
  /**
   * Also at each start of each instance, whenever the task last ran (crash recovery that must not wait a
   * period). Without it the task runs once per period across all instances.
   */
  atEveryStart?: boolean;
  /** Must be idempotent: a task that runs longer than its period may overlap with its next run. */
  run: (ctx: AppContext) => Promise<unknown>;
}

/**
 * The task's turn for this period, across every instance on this database: true for exactly one caller
 * per period. The database's clock decides, so instances with skewed clocks agree. A plain row update
 * (no advisory lock) works through PgBouncer's transaction pooling too.
 */
export async function claimPeriod(db: Db, name: string, everyMs: number): Promise<boolean> {
  // 2 % slack: timers that fire a few milliseconds early still find the period over.
  const seconds = (everyMs * 0.98) / 1000;
  // now() is when a statement began: a caller that began first may reach the row second and find it a
  // little in the future. Only a row more than a period ahead (the database's clock went back) is stale.
  const rows = await queryRows<{ name: string }>(
    db,
    sql`insert into periodic_runs (name, started_at) values (${name}, now())
        on conflict (name) do update set started_at = excluded.started_at
        where periodic_runs.started_at <= now() - make_interval(secs => ${seconds})
           or periodic_runs.started_at > now() + make_interval(secs => ${everyMs / 1000})
        returning name`,
  );
  return rows.length > 0;
}

export interface Worker {
  /** Stops polling and the periodic timers, and hands the running job back; resolves once it is back. */
  stop(): Promise<void>;
  /** The job this worker runs now, if any. */
  readonly running: ClaimedJob | undefined;
  /**
   * After stop(): waits until the job loop has ended (a handed-back job's handler has returned, having
   * seen its signal), at most `ms`; true when it has.
   */
  settled(ms: number): Promise<boolean>;
}

/** Starts the in-process worker: queued jobs every few seconds, periodic tasks on their own clocks. */
export function startWorker(
  ctx: AppContext,
  opts: {
    handlers: Record<string, JobHandler>;
    tasks: PeriodicTask[];
    pollMs?: number;
    /**
     * The tasks' first tries are this far apart, in the list's order (default 1 s; decision 0755), after
     * the first at 2 s; a task that runs at every start is tried first. Each task's clock starts at its
     * first try, so tasks of one period stay apart.
     */
    spreadMs?: number;
    log: (msg: string, err?: unknown) => void;
    /** Called after each periodic task this instance ran (name, milliseconds). */
    onTaskRun?: (name: string, ms: number) => void;
    /** Called after each turn a periodic task was given or refused here (whether it ran or not). */
    onTaskTried?: (name: string, ran: boolean) => void;
  },
): Worker {
  const timers: NodeJS.Timeout[] = [];
  const stopping = new AbortController();
  let current: ClaimedJob | undefined;
  let handedBack: Promise<unknown> = Promise.resolve();
  let loop: Promise<unknown> = Promise.resolve();
  const guard = (name: string, fn: () => Promise<unknown>) => {
    let running = false;
    return async () => {
      if (running || stopping.signal.aborted) return;
      running = true;
      try {
        await fn();
      } catch (err) {
        if (!stopping.signal.aborted) opts.log(`background task ${name} failed`, err);
      } finally {
        running = false;
      }
    };
  };
  const poll = guard(
    'jobs',
    () =>
      (loop = (async () => {
        try {
          await runDueJobs(ctx, opts.handlers, {
            signal: stopping.signal,
            log: opts.log,
            onClaim: (job) => (current = job),
            onHandBack: (written) => {
              handedBack = written;
            },
          });
        } finally {
          current = undefined;
        }
      })()),
  );
  timers.push(setInterval(() => void poll(), opts.pollMs ?? 5000));
  const spread = opts.spreadMs ?? 1000;
  const startFirst = [...opts.tasks.filter((x) => x.atEveryStart), ...opts.tasks.filter((x) => !x.atEveryStart)];
  for (const [i, task] of startFirst.entries()) {
    let first = true;
    const run = guard(task.name, async () => {
      const always = first && task.atEveryStart;
      first = false;
      if (!always && !(await claimPeriod(ctx.db, task.name, task.everyMs))) {
        opts.onTaskTried?.(task.name, false);
        return;
      }
      const started = Date.now();
      try {
        await task.run(ctx);
        opts.onTaskRun?.(task.name, Date.now() - started);
      } finally {
        opts.onTaskTried?.(task.name, true);
      }
    });
    const firstTry = setTimeout(
      () => {
        if (stopping.signal.aborted) return;
        const clock = setInterval(() => void run(), task.everyMs);
        clock.unref();
        timers.push(clock);
        void run();
      },
      2000 + i * spread,
    );
    timers.push(firstTry);
  }
  for (const t of timers) t.unref();
  return {
    get running() {
      return current;
    },
    async stop() {
      for (const t of timers) clearInterval(t);
      // The abort writes the hand-back synchronously into `handedBack`; the handler itself may still run.
      stopping.abort();
      await handedBack;
    },
    async settled(ms) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
      const ended = loop.then(
        () => true as const,
        () => true as const,
      );
      try {
        return await Promise.race([ended, late]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** The queue as an operator watches it (metrics): jobs due now, and how long the oldest of them has waited. */
export async function queueStats(db: Db): Promise<{ due: number; oldestSeconds: number }> {
  const [row] = await queryRows<{ due: number; oldest: number | null }>(
    db,
    sql`select count(*)::int as due, extract(epoch from now() - min(run_at))::float8 as oldest
          from jobs where status = 'queued' and run_at <= now()`,
  );
  return { due: Number(row.due), oldestSeconds: Math.max(0, Number(row.oldest ?? 0)) };
}
