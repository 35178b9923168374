// The ranking rule (DESIGN.md "Directory and position"), in one place: the directory's SQL is built from
// these constants and /what-you-get states them, one sentence per entry (a test holds the two together).
// It is the whole algorithm: nothing outside this file changes the order of a list.

/** Inside every list, listings are sorted by these keys, the first deciding unless two are equal. */
export const RANKING_ORDER = [
  // When the listing was last moved to the top: its creation, or the profile's latest standard top-up.
  { key: 'lastTopup', column: 'bumped_at', direction: 'desc', nulls: 'last' },
  // Equal moments: the listing created first (ids grow with time).
  { key: 'olderListing', column: 'id', direction: 'asc' },
] as const;

export type RankingKey = (typeof RANKING_ORDER)[number]['key'];

/** What moves a listing to the top (sets bumped_at to now). */
export const RANKING_MOVES = ['newListing', 'standardTopup'] as const;

/** Which listings a list is made of; inside each, RANKING_ORDER. */
export const RANKING_LISTS = {
  /** A city page: every listed profile at home or on an additional location in that city. */
  city: 'everyListing',
  /** A country page: each profile once, by its best-ranked listing in that country. */
  country: 'bestListingPerProfile',
  /** Search results: each profile once, by its home listing. */
  search: 'homeListing',
  /** Near me: the nearest city first, and inside one city the city's order. */
  nearby: 'nearestCityFirst',
} as const;

/** The advertiser's position: rank (1 = top) of the home listing in this list of the home city. */
export const POSITION_LIST = { listing: 'home', category: 'escorts' } as const;

/** Things people might expect to matter that do not: stated on the page so nobody has to guess. */
export const NOT_IN_RANKING = ['verification', 'photos', 'views', 'spending', 'credits'] as const;

/**
 * `l.bumped_at desc nulls last, l.id asc`: the ORDER BY of a list over the listings table aliased `alias`.
 * `renamed`: a table that names a ranking column otherwise (directory_entries: `id` is `listing_id`).
 */
export function rankingOrderBy(
  alias: string,
  renamed: Partial<Record<(typeof RANKING_ORDER)[number]['column'], string>> = {},
): string {
  return RANKING_ORDER.map(
    (k) => `${alias}.${renamed[k.column] ?? k.column} ${k.direction}${'nulls' in k ? ` nulls ${k.nulls}` : ''}`,
  ).join(', ');
}

/** SQL that is true when listing `a` ranks above listing `b` (both not null on the ranking columns). */
export function rankedAbove(a: string, b: string): string {
  const [first, ...rest] = RANKING_ORDER;
  const beats = (k: (typeof RANKING_ORDER)[number]) =>
    `${a}.${k.column} ${k.direction === 'desc' ? '>' : '<'} ${b}.${k.column}`;
  if (!rest.length) return beats(first);
  // (a.k1 beats b.k1) or (a.k1 = b.k1 and (a.k2 beats b.k2 or (...)))
  let clause = beats(rest[rest.length - 1]);
  for (let i = rest.length - 2; i >= 0; i--)
    clause = `${beats(rest[i])} or (${a}.${rest[i].column} = ${b}.${rest[i].column} and ${clause})`;
  return `(${beats(first)} or (${a}.${first.column} = ${b}.${first.column} and ${clause}))`;
}

/**
 * SQL true for every listing `b` at or below listing `a` on the rule's first key alone (`a` is a cursor):
 * redundant beside rankedAbove(a, b), it lets an index on that key start at the cursor instead of at the top.
 */
export function atOrBelowOnFirstKey(a: string, b: string): string {
  const [first] = RANKING_ORDER;
  return `${b}.${first.column} ${first.direction === 'desc' ? '<=' : '>='} ${a}.${first.column}`;
}

/** The same order for rows in memory (tests): negative when `a` ranks above `b`. */
export function compareRanking(
  a: { bumpedAt: Date | string; id: number },
  b: { bumpedAt: Date | string; id: number },
): number {
  for (const k of RANKING_ORDER) {
    const va = k.column === 'id' ? a.id : new Date(a.bumpedAt).getTime();
    const vb = k.column === 'id' ? b.id : new Date(b.bumpedAt).getTime();
    if (va !== vb) return k.direction === 'desc' ? vb - va : va - vb;
  }
  return 0;
}
