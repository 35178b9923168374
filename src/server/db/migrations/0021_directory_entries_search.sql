-- A search reads the profile's text beside her rank and filter facts (decision 0737): the whole of a
-- search page, its count and its filters come from directory_entries, not from the profiles' heap.
ALTER TABLE "directory_entries" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE OR REPLACE VIEW directory_facts AS
SELECT l.id AS listing_id, l.profile_id, l.country_code, l.city_id, l.country_primary AS is_primary,
  directory_cats(p.gender, p.dominatrix) AS cats, l.kind, l.bumped_at, l.expires_at, p.shown_birth_date,
  p.currency,
  -- The price a price filter reads: the in-call 60-minute rate, or the out-call one when she only visits.
  CASE WHEN jsonb_path_exists(p.rates, '$.incall.* ? (@.type() == "number")')
    THEN CASE WHEN jsonb_typeof(p.rates #> '{incall,60min}') = 'number' THEN (p.rates #>> '{incall,60min}')::numeric END
    ELSE CASE WHEN jsonb_typeof(p.rates #> '{outcall,60min}') = 'number' THEN (p.rates #>> '{outcall,60min}')::numeric END
  END AS price,
  jsonb_path_exists(p.rates, '$.incall.* ? (@.type() == "number")') AS incall,
  jsonb_path_exists(p.rates, '$.outcall.* ? (@.type() == "number")') AS outcall,
  p.services, p.languages, p.verification_status = 'verified' AS verified,
  EXISTS (SELECT 1 FROM media v WHERE v.user_id = p.user_id AND v.type = 'video' AND v.status = 'approved') AS video,
  p.available_until, p.search_text
FROM listings l JOIN profiles p ON p.user_id = l.profile_id
WHERE p.listed;--> statement-breakpoint
CREATE OR REPLACE FUNCTION directory_sync(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- directory_entries as directory_facts says now, for these profiles. A row whose list or categories
  -- changed goes and comes back (the entries' trigger turns that into count changes); a row whose other
  -- facts changed is updated in place (no count changes: the trigger passes over it).
  DELETE FROM directory_entries e WHERE e.profile_id = ANY(ids) AND NOT EXISTS (
    SELECT 1 FROM listings l JOIN profiles p ON p.user_id = l.profile_id
    WHERE l.id = e.listing_id AND p.listed AND l.country_code = e.country_code AND l.city_id = e.city_id
      AND l.country_primary = e.is_primary AND directory_cats(p.gender, p.dominatrix) = e.cats);
  INSERT INTO directory_entries AS e (listing_id, profile_id, country_code, city_id, is_primary, cats, kind,
    bumped_at, expires_at, shown_birth_date, currency, price, incall, outcall, services, languages, verified,
    video, available_until, search_text)
  SELECT f.listing_id, f.profile_id, f.country_code, f.city_id, f.is_primary, f.cats, f.kind, f.bumped_at,
    f.expires_at, f.shown_birth_date, f.currency, f.price, f.incall, f.outcall, f.services, f.languages,
    f.verified, f.video, f.available_until, f.search_text
  FROM directory_facts f WHERE f.profile_id = ANY(ids)
  ON CONFLICT (listing_id) DO UPDATE SET kind = excluded.kind, bumped_at = excluded.bumped_at,
    expires_at = excluded.expires_at, shown_birth_date = excluded.shown_birth_date, currency = excluded.currency,
    price = excluded.price, incall = excluded.incall, outcall = excluded.outcall, services = excluded.services,
    languages = excluded.languages, verified = excluded.verified, video = excluded.video,
    available_until = excluded.available_until, search_text = excluded.search_text
  WHERE (e.kind, e.bumped_at, e.expires_at, e.shown_birth_date, e.currency, e.price, e.incall, e.outcall,
      e.services, e.languages, e.verified, e.video, e.available_until, e.search_text)
    IS DISTINCT FROM (excluded.kind, excluded.bumped_at, excluded.expires_at, excluded.shown_birth_date,
      excluded.currency, excluded.price, excluded.incall, excluded.outcall, excluded.services,
      excluded.languages, excluded.verified, excluded.video, excluded.available_until, excluded.search_text);
END;
$$;--> statement-breakpoint
-- The text of the entries there are (the update trigger off: no list changes its members).
ALTER TABLE directory_entries DISABLE TRIGGER directory_entries_update;--> statement-breakpoint
UPDATE directory_entries e SET search_text = p.search_text FROM profiles p WHERE p.user_id = e.profile_id;--> statement-breakpoint
ALTER TABLE directory_entries ENABLE TRIGGER directory_entries_update;--> statement-breakpoint
CREATE INDEX "directory_entries_search_trgm" ON "directory_entries" USING gin ("search_text" gin_trgm_ops) WHERE "directory_entries"."kind" = 'home';--> statement-breakpoint
CREATE INDEX "directory_entries_home_rank" ON "directory_entries" USING btree ("bumped_at" DESC NULLS LAST,"listing_id") WHERE "directory_entries"."kind" = 'home';--> statement-breakpoint
ANALYZE directory_entries;