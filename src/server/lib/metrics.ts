// What an operator watches (issue 45 item 3, decision 1019): one prom-client registry per app context
// (the tests build many apps in one process), read in Prometheus's text format at GET /metrics
// (plugins/metrics.ts, behind METRICS_TOKEN). Counters are this instance's own since its start; the
// gauges read the pools and the job queue when scraped.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AppContext } from '../context';
import { poolStatsOf } from '../db/client';
import { queueStats } from './jobs';

export class Metrics {
  readonly registry = new Registry();

  /** Every answer, by route pattern (never the raw path), method and status. */
  readonly requests = new Histogram({
    name: 'directory_http_request_duration_seconds',
    help: 'Time to answer a request, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  /** The directory's answer cache: served from this process, from Redis, or made anew. */
  readonly answerCache = new Counter({
    name: 'directory_answer_cache_lookups_total',
    help: 'Directory answers by where they came from: memory, shared (Redis), made (a miss) or joined (a making under way)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  /** Loads and payments by provider and outcome (credited, declined, failed...). */
  readonly payments = new Counter({
    name: 'directory_payments_total',
    help: 'Payment attempts by method, provider and outcome',
    labelNames: ['method', 'provider', 'outcome'] as const,
    registers: [this.registry],
  });

  /** Providers' notifications by provider and outcome (credited, duplicate, refused...). */
  readonly webhooks = new Counter({
    name: 'directory_webhooks_total',
    help: "Payment providers' notifications by provider and outcome",
    labelNames: ['provider', 'outcome'] as const,
    registers: [this.registry],
  });

  /** Auto-topup runs by outcome. */
  readonly autoTopups = new Counter({
    name: 'directory_auto_topup_runs_total',
    help: 'Auto-topup runs by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor(ctx: Pick<AppContext, 'db'>) {
    collectDefaultMetrics({ register: this.registry, prefix: 'directory_' });
    // Three of prom-client's defaults are gauges named like counters (promtool refuses the name); the
    // event loop's handles and requests say little to an operator that the rest does not.
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
      this.registry.removeSingleMetric(`directory_${name}`);
    new Gauge({
      name: 'directory_db_pool_connections',
      help: 'PostgreSQL connections of this instance by pool and state (in use, idle), and requests waiting for one',
      labelNames: ['pool', 'state'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const p of poolStatsOf(ctx.db)) {
          this.set({ pool: p.pool, state: 'in_use' }, p.total - p.idle);
          this.set({ pool: p.pool, state: 'idle' }, p.idle);
          this.set({ pool: p.pool, state: 'waiting' }, p.waiting);
        }
      },
    });
    // One query for both queue gauges per scrape (the registry asks every metric at once); a database out
    // of reach leaves them as they were, and the scrape still answers.
    let asking: Promise<{ due: number; oldestSeconds: number } | undefined> | undefined;
    const stats = () =>
      (asking ??= queueStats(ctx.db)
        .catch(() => undefined)
        .finally(() => (asking = undefined)));
    new Gauge({
      name: 'directory_jobs_due',
      help: 'Background jobs due now and not yet done (all instances)',
      registers: [this.registry],
      async collect() {
        const s = await stats();
        if (s) this.set(s.due);
      },
    });
    new Gauge({
      name: 'directory_jobs_oldest_due_seconds',
      help: 'How long the oldest job due has waited (0 when none)',
      registers: [this.registry],
      async collect() {
        const s = await stats();
        if (s) this.set(s.oldestSeconds);
      },
    });
  }
}

const byContext = new WeakMap<object, Metrics>();

/** This app context's metrics (made on first use). */
export function metricsOf(ctx: Pick<AppContext, 'db'>): Metrics {
  let m = byContext.get(ctx);
  if (!m) byContext.set(ctx, (m = new Metrics(ctx)));
  return m;
}
