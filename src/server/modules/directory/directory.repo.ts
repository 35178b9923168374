// SQL of the directory's counters (impressions, views, phone reveals) and of the visitors' feedback. The
// lists, search, nearby and the profile page have their own repositories (docs/decisions/0760).
import { and, eq, sql } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../../db/client';
import { profiles } from '../../db/schema';

// ---------------------------------------------------------------- stats and feedback

export type StatColumn = 'impressions' | 'views' | 'phone_reveals';

/**
 * Adds to today's counter of each profile (only profiles that exist and are listed count). Raw SQL on
 * purpose: every impression flush and counted view runs it, and Drizzle's insert-select (every column
 * of the table) measured 1.5 ms slower per call (0915).
 */
export async function bumpDailyStat(db: Db, column: StatColumn, profileIds: number[], day: string) {
  if (!profileIds.length) return 0;
  const col = sql.identifier(column);
  const ids = sql.join(
    profileIds.map((id) => sql`${id}::int`),
    sql`, `,
  );
  const rows = await queryRows<{ profile_id: number }>(
    db,
    sql`
    insert into profile_stats_daily (profile_id, day, ${col})
    select p.user_id, ${day}::date, 1 from profiles p where p.user_id in (${ids}) and p.listed
    on conflict (profile_id, day) do update set ${col} = profile_stats_daily.${col} + 1
    returning profile_id`,
  );
  return rows.length;
}

/** Whether a phone reveal names a profile that exists and is listed (a repeat is answered, not counted). */
export async function isListedProfile(db: Db, profileId: number): Promise<boolean> {
  const rows = await db
    .select({ one: sql`1` })
    .from(profiles)
    .where(and(eq(profiles.userId, profileId), eq(profiles.listed, true)));
  return rows.length > 0;
}

export async function incrementProfileViews(db: Db, profileId: number) {
  await db
    .update(profiles)
    .set({ views: sql`${profiles.views} + 1` })
    .where(eq(profiles.userId, profileId));
}

/**
 * Raw SQL (docs/decisions/0915): the row goes in only when the named profile exists, in one statement
 * (a foreign-key error would abort the caller's transaction, and Drizzle's insert-select wants every
 * column of the table).
 */
export async function insertFeedback(
  db: Db | Tx,
  f: {
    profileId: number | null;
    reason: string;
    message: string | null;
    contact: string | null;
    priority: number;
    reporterHash: string;
    createdAt: Date;
  },
) {
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`
    insert into feedback (profile_id, reason, message, contact, priority, reporter_hash, created_at)
    select ${f.profileId}::int, ${f.reason}, ${f.message}, ${f.contact}, ${f.priority}, ${f.reporterHash}, ${f.createdAt.toISOString()}::timestamptz
    where ${f.profileId}::int is null or exists (select 1 from profiles where user_id = ${f.profileId}::int)
    returning id`,
  );
  return row?.id ?? null;
}

// What the tests of this module read by this file's name (decision 0760): the rooms' own repositories
// are where the code lives; nothing else imports these names from here.
export { countFilteredListings, findListings } from './lists.repo';
export { readCityStretches } from './nearby.repo';
export {
  countByWords,
  estimateSearch,
  facetsOf,
  foldSearchWords,
  knownRarestFirst,
  rarestFirst,
  SEARCH_MERGED_WORDS,
  searchByWords,
  searchesPostings,
  searchRows,
} from './search.repo';
