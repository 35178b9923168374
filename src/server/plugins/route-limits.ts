// RATE_LIMIT_SCALE: every route's request cap (config.rateLimit.max, @fastify/rate-limit) multiplied, so a
// load test or a benchmark can run many clients from one address or on one account without changing any
// route. Added before the rate-limit plugin: onRoute hooks run in the order they were added, so the plugin
// reads the scaled cap. The limits of ctx.limiter (sign-in, PIN, registration) are not route caps.
import type { FastifyInstance } from 'fastify';

export function scaleRouteLimits(app: FastifyInstance, scale: number) {
  if (scale === 1) return;
  app.addHook('onRoute', (route) => {
    const limit = route.config?.rateLimit;
    if (limit && typeof limit === 'object' && typeof limit.max === 'number')
      route.config = { ...route.config, rateLimit: { ...limit, max: limit.max * scale } };
  });
}
