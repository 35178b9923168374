// RATE_LIMIT_SCALE multiplies a route's cap: a route allowing 2 requests allows 6 at scale 3, and its
// 7th is refused as before; at scale 1 nothing changes.
import rateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { scaleRouteLimits } from './route-limits';

async function appAt(scale: number) {
  const app = Fastify();
  scaleRouteLimits(app, scale);
  await app.register(rateLimit, { global: false });
  app.get('/capped', { config: { rateLimit: { max: 2, timeWindow: '1 minute' } } }, async () => ({ ok: true }));
  app.get('/open', async () => ({ ok: true }));
  await app.ready();
  return app;
}

async function statuses(scale: number, url: string, n: number) {
  const app = await appAt(scale);
  try {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await app.inject({ method: 'GET', url })).statusCode);
    return out;
  } finally {
    await app.close();
  }
}

describe('RATE_LIMIT_SCALE', () => {
  it("multiplies each route's cap, and leaves routes without one alone", async () => {
    expect(await statuses(1, '/capped', 3)).toEqual([200, 200, 429]);
    expect(await statuses(3, '/capped', 7)).toEqual([200, 200, 200, 200, 200, 200, 429]);
    expect(await statuses(3, '/open', 7)).toEqual(Array(7).fill(200));
  });
});
