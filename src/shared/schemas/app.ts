// App-level calls (spec section 1): the server's configuration the browser needs, and the online ping.
// POST /app/getData/{x} answers CurrentUser (./auth.ts).
import { z } from 'zod';

/** GET /app/config: nothing secret, cached by the browser for the whole visit. */
export const AppConfig = z.object({
  /** Build id of the running server (the SPA's chunks carry it as ?v=). */
  build: z.string(),
  /** Where page-not-found sends a visitor; null shows our own screen (docs/decisions/0008). */
  fallback_landing_url: z.string().nullable(),
  /** Currency of credits and prices (SITE_CURRENCY). */
  currency: z.string(),
});
export type AppConfig = z.infer<typeof AppConfig>;

/** POST /app/ping: `recorded` is false when the last record is too recent to write again. */
export const PingResponse = z.object({ data: z.object({ online: z.literal(true), recorded: z.boolean() }) });
export type PingResponse = z.infer<typeof PingResponse>;

/** GET /health: for load balancers and the benchmark (503 with a message when the database is down). */
export const HealthResponse = z.object({
  status: z.literal('ok'),
  build: z.string(),
  database: z.enum(['pglite', 'postgres']),
});
export type HealthResponse = z.infer<typeof HealthResponse>;

/** GET /health/live: the process answers (a load balancer or orchestrator restarts it when it does not). */
export const LiveResponse = z.object({ status: z.literal('ok') });
export type LiveResponse = z.infer<typeof LiveResponse>;

/**
 * GET /health/ready: send traffic here. 503 with a message while the instance shuts down, or when the
 * database or the configured Redis does not answer.
 */
export const ReadyResponse = z.object({
  status: z.literal('ok'),
  build: z.string(),
  database: z.enum(['pglite', 'postgres']),
  redis: z.enum(['ok', 'none']),
});
export type ReadyResponse = z.infer<typeof ReadyResponse>;
