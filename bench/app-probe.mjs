// A probe preloaded into the app under a bench, for where a request's time goes (bench/README.md, session
// 21): `NODE_OPTIONS="--import ./bench/app-probe.mjs" npm run bench -- --only-mix ...` writes one JSON line
// per request ({r, s, d}: method and URL, start and duration in ms since the app's start), per garbage
// collection ({gc: kind, s, d}; 1 scavenge, 4 mark-compact, 8 incremental marking), per new database
// connection ({conn, s}) and every 5 s the heap ({mem, total, rss} in MB) to $APP_PROBE_DIR (default
// /tmp)/app-probe-<pid>.log. Only the app writes (the bench loads it too; under tsx, its launcher writes a
// second, short file of its own collections).
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';

if (process.argv.some((a) => a.includes('server/main'))) {
  const file = path.join(process.env.APP_PROBE_DIR ?? '/tmp', `app-probe-${process.pid}.log`);
  const fd = fs.openSync(file, 'w');
  const ms = (t) => Math.round(t * 100) / 100;
  const write = (o) => fs.writeSync(fd, JSON.stringify(o) + '\n');
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) write({ gc: e.detail?.kind, s: ms(e.startTime), d: ms(e.duration) });
  }).observe({ entryTypes: ['gc'] });
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, req, res) {
    if (event === 'request') {
      const s = performance.now();
      res.on('finish', () => write({ r: `${req.method} ${req.url}`, s: ms(s), d: ms(performance.now() - s) }));
    }
    return emit.apply(this, arguments);
  };
  const pg = createRequire(path.join(process.cwd(), 'package.json'))('pg');
  const connect = pg.Client.prototype.connect;
  pg.Client.prototype.connect = function (...args) {
    write({ conn: 1, s: ms(performance.now()) });
    return connect.apply(this, args);
  };
  setInterval(() => {
    const m = process.memoryUsage();
    const mb = (n) => Math.round(n / 1e6);
    write({ mem: mb(m.heapUsed), total: mb(m.heapTotal), rss: mb(m.rss), s: Math.round(performance.now()) });
  }, 5000).unref();
}
