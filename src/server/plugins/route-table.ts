// Every route the app registers, with its schema, as Fastify announces it (onRoute). The fuzz suite
// reads it, so a route added anywhere is fuzzed without anyone listing it (issue 8).
import type { FastifyInstance, FastifySchema } from 'fastify';

export interface RouteEntry {
  method: string;
  url: string;
  schema?: FastifySchema;
}

const tables = new WeakMap<FastifyInstance, RouteEntry[]>();

/** Call before any route is registered: routes of every plugin registered afterwards are recorded. */
export function recordRoutes(app: FastifyInstance): void {
  const table: RouteEntry[] = [];
  tables.set(app, table);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      if (method !== 'HEAD') table.push({ method, url: route.url ?? route.path, schema: route.schema });
  });
}

export const routeTable = (app: FastifyInstance): readonly RouteEntry[] => tables.get(app) ?? [];
