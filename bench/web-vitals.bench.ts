// What a visitor on a phone feels (issue 14): LCP, CLS, TBT and bytes transferred for home, a country, a
// city, a profile and search, in Debian's Chromium emulating a mid-range phone: 412 px wide, CPU 4x
// slower, 150 ms round trip, 1.6 Mbit/s down. Median of 3 runs per page, each in a fresh browser context
// (empty cache). Lighthouse 13 cannot trace Chromium 156 (NO_NAVSTART), so the metrics come from the
// page's own PerformanceObserver entries.
//
//   npm run build && npx tsx bench/web-vitals.bench.ts [--base http://127.0.0.1:3000] [--runs 3]
// Without --base it starts the built app on a scratch data directory (300 demo profiles). The table, with
// each page judged against issue 14's goals, goes into bench/README.md between the web-vitals markers with
// the date and the machine's load (`--keep-readme` leaves the file alone).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { startApp } from '../scripts/app-server';
import { measuredPages } from './pages';
import { writeReadmeBlock } from './readme';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    runs: { type: 'string', default: '3' },
    'keep-readme': { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);

interface Vitals {
  lcp: number;
  cls: number;
  tbt: number;
  kb: number;
  /** JavaScript only (the budget: at most 110 KB compressed for the initial route). */
  jsKb: number;
}

async function measure(browser: Browser, url: string): Promise<Vitals> {
  const context = await browser.newContext({
    viewport: { width: 412, height: 915 },
    deviceScaleFactor: 2.6,
    isMobile: true,
    hasTouch: true,
  });
  // A returning visitor who accepted the 18+ notice (the notice itself is measured by the layout, not here).
  await context.addInitScript(() => {
    window.localStorage.setItem('adult-notice', 'accepted');
    const w = window as unknown as { __vitals: { lcp: number; cls: number; long: Array<[number, number]> } };
    w.__vitals = { lcp: 0, cls: 0, long: [] };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__vitals.lcp = e.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>)
        if (!e.hadRecentInput) w.__vitals.cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__vitals.long.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  let bytes = 0;
  let jsBytes = 0;
  const scripts = new Set<string>();
  cdp.on('Network.responseReceived', (e: { requestId: string; type: string }) => {
    if (e.type === 'Script') scripts.add(e.requestId);
  });
  cdp.on('Network.loadingFinished', (e: { requestId: string; encodedDataLength: number }) => {
    bytes += e.encodedDataLength;
    if (scripts.has(e.requestId)) jsBytes += e.encodedDataLength;
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForTimeout(3000); // late shifts and long tasks
  const v = await page.evaluate(() => {
    const w = window as unknown as { __vitals: { lcp: number; cls: number; long: Array<[number, number]> } };
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
    const tbt = w.__vitals.long.filter(([start]) => start >= fcp).reduce((sum, [, d]) => sum + Math.max(0, d - 50), 0);
    return { lcp: w.__vitals.lcp, cls: w.__vitals.cls, tbt };
  });
  await context.close();
  return { ...v, kb: bytes / 1024, jsKb: jsBytes / 1024 };
}

// bench/README.md holds the latest figures between these lines.
const BEGIN = '<!-- web-vitals:begin -->';
const END = '<!-- web-vitals:end -->';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = values.base
  ? null
  : await startApp({
      env: { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'vitals-')), SEED_PROFILES: '300' },
      healthTimeoutMs: 120_000,
    });
const base = values.base ?? server!.baseUrl;
const pages = await measuredPages(base);

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
/** Issue 14's goals for a page on the emulated phone. */
const GOALS = { lcpS: 2.0, cls: 0.05, tbtMs: 150, jsKb: 110 };
const loadBefore = os.loadavg();
const rows: string[] = [];
const misses = { lcp: 0, cls: 0, tbt: 0, js: 0 };
const worst = { lcp: 0, cls: 0, tbt: 0, js: 0 };
for (const [name, p] of pages) {
  const results: Vitals[] = [];
  for (let i = 0; i < runs; i++) results.push(await measure(browser, base + p));
  const lcp = median(results.map((r) => r.lcp)) / 1000;
  const cls = median(results.map((r) => r.cls));
  const tbt = median(results.map((r) => r.tbt));
  const kb = median(results.map((r) => r.kb));
  const js = median(results.map((r) => r.jsKb));
  misses.lcp += lcp > GOALS.lcpS ? 1 : 0;
  misses.cls += cls > GOALS.cls ? 1 : 0;
  misses.tbt += tbt > GOALS.tbtMs ? 1 : 0;
  misses.js += js > GOALS.jsKb ? 1 : 0;
  worst.lcp = Math.max(worst.lcp, lcp);
  worst.cls = Math.max(worst.cls, cls);
  worst.tbt = Math.max(worst.tbt, tbt);
  worst.js = Math.max(worst.js, js);
  rows.push(
    `| ${name} (${p}) | ${lcp.toFixed(2)} s | ${cls.toFixed(3)} | ${tbt.toFixed(0)} ms | ${kb.toFixed(0)} KB | ${js.toFixed(0)} KB |`,
  );
  console.log(rows.at(-1));
}
await browser.close();
await server?.stop();

const n = pages.length;
const judged = (misses_: number) => (misses_ ? `not met on ${misses_} of ${n} pages` : `met on ${n} of ${n} pages`);
const loadAfter = os.loadavg();
const block = [
  BEGIN,
  `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, load average ${loadBefore[0].toFixed(1)} before and ` +
    `${loadAfter[0].toFixed(1)} after (other processes on the machine raise TBT and LCP; bytes do not depend on it); ` +
    `median of ${runs} runs per page (\`npm run bench:vitals -- ${process.argv.slice(2).join(' ')}\`).`,
  '',
  '| page | LCP | CLS | TBT | transferred | of it JavaScript |',
  '|---|---|---|---|---|---|',
  ...rows,
  '',
  'Goals of issue 14, judged on the rows above:',
  '',
  '| goal | worst page | met |',
  '|---|---|---|',
  `| LCP at most ${GOALS.lcpS.toFixed(1)} s | ${worst.lcp.toFixed(2)} s | ${judged(misses.lcp)} |`,
  `| CLS at most ${GOALS.cls} | ${worst.cls.toFixed(3)} | ${judged(misses.cls)} |`,
  `| TBT at most ${GOALS.tbtMs} ms | ${worst.tbt.toFixed(0)} ms | ${judged(misses.tbt)} |`,
  `| JavaScript of the initial route at most ${GOALS.jsKb} KB compressed (bodies and response headers) | ${worst.js.toFixed(0)} KB | ${judged(misses.js)} |`,
  ...(misses.js
    ? [
        '',
        'The JavaScript over the budget, measured: `npx tsx bench/bundle-composition.ts` splits it by package ' +
          'and source folder; about 90 KB are the libraries DESIGN.md names (React 19, React Router, TanStack ' +
          'Query, i18next), and docs/decisions/0713 says why they stay.',
      ]
    : []),
  END,
].join('\n');
console.log(`\n${block}`);
if (!values['keep-readme']) await writeReadmeBlock(BEGIN, END, block);
