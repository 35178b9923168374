import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';

export function listedProfileIds(db: Db, limit: number, offset: number) {
  return queryRows<{ user_id: number; updated_at: string }>(
    db,
    sql`select user_id, updated_at::text as updated_at from profiles where listed order by user_id limit ${limit} offset ${offset}`,
  );
}

export async function countListedProfiles(db: Db) {
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from profiles where listed`);
  return row.n;
}

/** Country and city directory pages that have something to show. */
export function directoryPages(db: Db) {
  return queryRows<{ country: string; city: string | null }>(
    db,
    sql`
    select distinct co.slug as country, c.slug as city
    from listings l
    join profiles p on p.user_id = l.profile_id and p.listed
    join countries co on co.code = l.country_code
    join cities c on c.id = l.city_id
    where l.expires_at is null or l.expires_at > now()
    order by 1, 2`,
  );
}
