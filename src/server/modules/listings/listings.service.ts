// Listings are where a profile appears: its home city and each additional location it bought. Their
// order is the ranking rule of DESIGN.md: bumped_at descending, ties by id. Every change of a listing
// goes through here so `country_primary` (one entry per profile on a country page) stays right.
import { sql } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../../db/client';

/** Recomputes which listing of each profile stands for it on its country pages. */
export async function refreshCountryPrimary(db: Db | Tx, profileIds?: number[]) {
  if (profileIds && !profileIds.length) return;
  const only = profileIds
    ? sql`and l.profile_id in (${sql.join(
        profileIds.map((id) => sql`${id}::int`),
        sql`, `,
      )})`
    : sql``;
  await db.execute(sql`
    update listings l set country_primary = (l.id = best.id)
    from (
      select distinct on (l.profile_id, l.country_code) l.profile_id, l.country_code, l.id
      from listings l
      where (l.expires_at is null or l.expires_at > now()) ${only}
      order by l.profile_id, l.country_code, l.bumped_at desc, l.id
    ) best
    where best.profile_id = l.profile_id and best.country_code = l.country_code ${only}
      and l.country_primary is distinct from (l.id = best.id)`);
  // Expired listings stand for nothing.
  await db.execute(sql`
    update listings l set country_primary = false
    where l.expires_at is not null and l.expires_at <= now() and l.country_primary ${only}`);
}

/** Standard top-up: every listing of the profile moves to position 1 of its place. */
export async function bumpProfile(db: Db | Tx, profileId: number, at: Date) {
  await db.execute(
    sql`update listings set bumped_at = ${at.toISOString()}::timestamptz where profile_id = ${profileId}`,
  );
  await refreshCountryPrimary(db, [profileId]);
}

/** Periodic task: drops additional locations whose 30 days are over. */
export async function removeExpiredListings(db: Db) {
  const rows = await queryRows<{ profile_id: number }>(
    db,
    sql`delete from listings where kind = 'additional' and expires_at <= now() returning profile_id`,
  );
  const ids = [...new Set(rows.map((r) => r.profile_id))];
  await refreshCountryPrimary(db, ids);
  return ids.length;
}

/**
 * The advertiser's position (DESIGN.md "Directory and position"): the rank, 1 = top, of the profile's
 * home listing among the public listings of its home city for `escorts`. null when the profile has no
 * public home listing (incomplete, hidden, flagged...).
 */
export async function positionOf(db: Db | Tx, profileId: number, now: Date): Promise<number | null> {
  const [row] = await queryRows<{ position: number | null }>(
    db,
    sql`
    select (
      select count(*)::int + 1 from listings o join profiles op on op.user_id = o.profile_id
      where o.city_id = h.city_id and op.listed and (o.expires_at is null or o.expires_at > ${now.toISOString()}::timestamptz)
        and (o.bumped_at > h.bumped_at or (o.bumped_at = h.bumped_at and o.id < h.id))
    ) as position
    from listings h join profiles p on p.user_id = h.profile_id
    where h.profile_id = ${profileId} and h.kind = 'home' and p.listed`,
  );
  return row ? Number(row.position) : null;
}
