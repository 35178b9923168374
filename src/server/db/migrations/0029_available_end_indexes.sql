-- The next end of "available now" in a country or a city (a part of every scoped list version, read on
-- every request, cached answers too: decision 0754) by one probe of an index, not a walk. Migration 0019
-- walked everyone available now in the order they end and looked each one up in the place's entries
-- until one was there: a place where nobody is available walked them all (2,500 lookups, 10 ms per read
-- of a small city's version at 50,000 profiles with one in twenty available; ten times that at 500,000).
-- Since migration 0020 each entry carries her available_until, so the first end in a place is the
-- smallest of its entries' ends after the moment: the first key after it in these indexes. Their predicate
-- names `listing_id > 0` (every id is), which only this function states: the lists' statements
-- (`city_id = $1 and available_until > $2 and ...`) would otherwise match them too, and the planner, on
-- small tables, chose them over the lists' covering indexes (decision 0741) for an "available now" count.
CREATE INDEX "directory_entries_city_available_until" ON "directory_entries" USING btree ("city_id","available_until") WHERE "available_until" IS NOT NULL AND "listing_id" > 0;--> statement-breakpoint
CREATE INDEX "directory_entries_country_available_until" ON "directory_entries" USING btree ("country_code","available_until") WHERE "available_until" IS NOT NULL AND "listing_id" > 0;--> statement-breakpoint
CREATE OR REPLACE FUNCTION directory_available_end(p_at timestamptz, p_country char(2), p_city integer)
RETURNS bigint LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF p_city IS NOT NULL THEN
    RETURN (SELECT (extract(epoch from e.available_until) * 1000)::bigint FROM directory_entries e
      WHERE e.city_id = p_city AND e.available_until IS NOT NULL AND e.listing_id > 0 AND e.available_until > p_at
      ORDER BY e.available_until LIMIT 1);
  END IF;
  RETURN (SELECT (extract(epoch from e.available_until) * 1000)::bigint FROM directory_entries e
    WHERE e.country_code = p_country AND e.available_until IS NOT NULL AND e.listing_id > 0 AND e.available_until > p_at
    ORDER BY e.available_until LIMIT 1);
END $$;
