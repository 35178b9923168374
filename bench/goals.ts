// The goals of issue 14 for the directory's read path, judged against one run of bench/directory.bench.ts:
// a table that says, goal by goal, the worst case measured and whether the goal is met, and for each
// case that misses it, the measurement that says where the gap is.

export interface Measured {
  backend: string;
  /** getDirectory page 1 and page 20 of the same country (the deep-page goal compares them). */
  kind: 'page1' | 'page20' | 'other';
  name: string;
  connections: number;
  rps: number;
  p99: number;
  /** node:http serving the same bytes from memory, in the same run. */
  nodeRps: number;
  /** PostgreSQL: node:http with the freshness rule's version read in front (the rule's own ceiling). */
  freshRps?: number;
  /** /api/health p99 on one connection while this case ran (measured once per backend). */
  healthP99?: number;
}

/** Share of node:http's rate the app must reach, by backend (issue 14's table). */
export const SHARE_GOAL: Record<string, number> = { postgres: 60, pglite: 40 };
/** p99 at 50 connections, every case. */
export const P99_GOAL_MS = 25;
/** Page 20 within this share of page 1's rate. */
export const DEEP_PAGE_GOAL = 10;

const pct = (a: number, b: number) => Math.round((100 * a) / Math.max(b, 1));
const yes = (misses: number, of: number) => (misses ? `no: ${misses} of ${of} cases` : `yes, ${of} of ${of}`);

export function goalsSummary(rows: Measured[]): string {
  const lines = [
    'Goals of issue 14, judged on the rows above:',
    '',
    '| goal | backend | worst case | met |',
    '|---|---|---|---|',
  ];
  const gaps: string[] = [];
  for (const backend of [...new Set(rows.map((r) => r.backend))]) {
    const mine = rows.filter((r) => r.backend === backend);
    const goal = SHARE_GOAL[backend] ?? 0;
    // Share of node:http, every case at every connection count.
    const worstShare = [...mine].sort((a, b) => a.rps / a.nodeRps - b.rps / b.nodeRps)[0];
    const shareMisses = mine.filter((r) => pct(r.rps, r.nodeRps) < goal);
    lines.push(
      `| at least ${goal} % of node:http, every case | ${backend} | ${pct(worstShare.rps, worstShare.nodeRps)} % (${worstShare.name}, ${worstShare.connections} conns) | ${yes(shareMisses.length, mine.length)} |`,
    );
    for (const r of shareMisses) {
      const ceiling =
        r.freshRps !== undefined
          ? `; node:http behind the freshness rule's version read alone: ${pct(r.freshRps, r.nodeRps)} %, the app ${pct(r.rps, r.freshRps)} % of that`
          : '';
      gaps.push(`- ${backend}, ${r.name}, ${r.connections} conns: ${pct(r.rps, r.nodeRps)} % of node:http${ceiling}`);
    }
    // p99 at 50 connections (or the most measured).
    const most = Math.max(...mine.map((r) => r.connections));
    const atMost = mine.filter((r) => r.connections === most);
    const worstP99 = [...atMost].sort((a, b) => b.p99 - a.p99)[0];
    lines.push(
      `| p99 at most ${P99_GOAL_MS} ms at ${most} conns | ${backend} | ${worstP99.p99} ms (${worstP99.name}) | ${yes(atMost.filter((r) => r.p99 > P99_GOAL_MS).length, atMost.length)} |`,
    );
    // Page 20 against page 1, per connection count.
    const deep = [...new Set(mine.map((r) => r.connections))].flatMap((n) => {
      const p1 = mine.find((r) => r.kind === 'page1' && r.connections === n);
      const p20 = mine.find((r) => r.kind === 'page20' && r.connections === n);
      return p1 && p20 ? [{ n, diff: pct(p20.rps, p1.rps) - 100 }] : [];
    });
    if (deep.length) {
      const worst = [...deep].sort((a, b) => a.diff - b.diff)[0];
      lines.push(
        `| page 20 within ${DEEP_PAGE_GOAL} % of page 1 | ${backend} | ${worst.diff > 0 ? '+' : ''}${worst.diff} % (${worst.n} conns) | ${yes(deep.filter((d) => d.diff < -DEEP_PAGE_GOAL).length, deep.length)} |`,
      );
    }
    const health = mine.find((r) => r.healthP99 !== undefined);
    if (health)
      lines.push(
        `| /api/health p99 at most ${P99_GOAL_MS} ms while the directory is under load (no stalled event loop) | ${backend} | ${health.healthP99} ms (${health.name}, ${health.connections} conns) | ${health.healthP99! <= P99_GOAL_MS ? 'yes' : 'no'} |`,
      );
  }
  if (gaps.length)
    lines.push('', 'Cases under the share goal, and what the same run measured of the gap:', '', ...gaps);
  return lines.join('\n');
}
