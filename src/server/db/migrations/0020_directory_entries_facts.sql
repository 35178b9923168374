ALTER TABLE "directory_entries" ADD COLUMN "kind" text DEFAULT 'home' NOT NULL;--> statement-breakpoint
ALTER TABLE "directory_entries" ADD COLUMN "bumped_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "directory_entries" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "directory_entries" ADD COLUMN "shown_birth_date" date;--> statement-breakpoint
ALTER TABLE "directory_entries" ADD COLUMN "currency" char(3);--> statement-breakpoint
ALTER TABLE "directory_entries" ADD COLUMN "price" numeric;--> statement-breakpoint
ALTER TABLE "directory_entries" ADD COLUMN "incall" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "directory_entries" ADD COLUMN "outcall" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "directory_entries" ADD COLUMN "services" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "directory_entries" ADD COLUMN "languages" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "directory_entries" ADD COLUMN "verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "directory_entries" ADD COLUMN "video" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "directory_entries" ADD COLUMN "available_until" timestamp with time zone;--> statement-breakpoint
-- The facts a list filters and ranks on, kept beside its counts (decision 0734): a page and its count walk
-- directory_entries on its own rank indexes and never read a profile (1.2 GB of heap at 500,000 profiles,
-- decision 0733). directory_facts says what every entry holds, from listings, profiles and media; the
-- sync writes what it says for the profiles a statement changed, and a test compares the two.
CREATE VIEW directory_facts AS
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
  p.available_until
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
    video, available_until)
  SELECT f.listing_id, f.profile_id, f.country_code, f.city_id, f.is_primary, f.cats, f.kind, f.bumped_at,
    f.expires_at, f.shown_birth_date, f.currency, f.price, f.incall, f.outcall, f.services, f.languages,
    f.verified, f.video, f.available_until
  FROM directory_facts f WHERE f.profile_id = ANY(ids)
  ON CONFLICT (listing_id) DO UPDATE SET kind = excluded.kind, bumped_at = excluded.bumped_at,
    expires_at = excluded.expires_at, shown_birth_date = excluded.shown_birth_date, currency = excluded.currency,
    price = excluded.price, incall = excluded.incall, outcall = excluded.outcall, services = excluded.services,
    languages = excluded.languages, verified = excluded.verified, video = excluded.video,
    available_until = excluded.available_until
  WHERE (e.kind, e.bumped_at, e.expires_at, e.shown_birth_date, e.currency, e.price, e.incall, e.outcall,
      e.services, e.languages, e.verified, e.video, e.available_until)
    IS DISTINCT FROM (excluded.kind, excluded.bumped_at, excluded.expires_at, excluded.shown_birth_date,
      excluded.currency, excluded.price, excluded.incall, excluded.outcall, excluded.services,
      excluded.languages, excluded.verified, excluded.video, excluded.available_until);
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION directory_entries_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The scope's row may be there already, named by directory_touch (without what it counts): the count's
  -- columns are set here in any case.
  -- A statement trigger runs for statements that changed no row too (the sync's delete, mostly).
  IF TG_OP = 'INSERT' THEN
    IF NOT EXISTS (SELECT 1 FROM new_rows) THEN RETURN NULL; END IF;
  ELSIF NOT EXISTS (SELECT 1 FROM old_rows) THEN
    RETURN NULL;
  END IF;
  -- An update of facts alone (rank keys, filters: decision 0734) changes no count and no list's members;
  -- the lists it changes are named by directory_touch.
  -- (Nested: an INSERT's trigger has no old_rows to name. EXCEPT, not a join on listing_id: transition
  -- tables have no statistics, and a join of two big ones was planned as a nested loop.)
  IF TG_OP = 'UPDATE' THEN
    IF NOT EXISTS (SELECT listing_id, country_code, city_id, is_primary, cats FROM new_rows
        EXCEPT SELECT listing_id, country_code, city_id, is_primary, cats FROM old_rows) THEN
      RETURN NULL;
    END IF;
  END IF;
  PERFORM set_config('directory.pending', 'on', true);
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO directory_pending AS q (xid, scope, country_code, city_id, category, d)
    SELECT txid_current(), scope, cc, ci, cat, sum(d)::int FROM (
      SELECT 'c:' || e.country_code || ':' || c AS scope, e.country_code AS cc, 0 AS ci, c AS cat,
        CASE WHEN e.is_primary THEN 1 ELSE 0 END AS d FROM new_rows e, unnest(e.cats) c
      UNION ALL SELECT 'y:' || e.country_code || ':' || e.city_id || ':' || c, e.country_code, e.city_id, c, 1
        FROM new_rows e, unnest(e.cats) c
      UNION ALL SELECT 'n:' || e.country_code, NULL, NULL, NULL, 0 FROM new_rows e
    ) x GROUP BY scope, cc, ci, cat
    ON CONFLICT (xid, scope) DO UPDATE SET d = q.d + excluded.d, country_code = excluded.country_code,
      city_id = excluded.city_id, category = excluded.category;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO directory_pending AS q (xid, scope, country_code, city_id, category, d)
    SELECT txid_current(), scope, cc, ci, cat, sum(d)::int FROM (
      SELECT 'c:' || e.country_code || ':' || c AS scope, e.country_code AS cc, 0 AS ci, c AS cat,
        CASE WHEN e.is_primary THEN -1 ELSE 0 END AS d FROM old_rows e, unnest(e.cats) c
      UNION ALL SELECT 'y:' || e.country_code || ':' || e.city_id || ':' || c, e.country_code, e.city_id, c, -1
        FROM old_rows e, unnest(e.cats) c
      UNION ALL SELECT 'n:' || e.country_code, NULL, NULL, NULL, 0 FROM old_rows e
    ) x GROUP BY scope, cc, ci, cat
    ON CONFLICT (xid, scope) DO UPDATE SET d = q.d + excluded.d, country_code = excluded.country_code,
      city_id = excluded.city_id, category = excluded.category;
  END IF;
  PERFORM directory_mark('n:*');
  PERFORM directory_mark('g');
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION directory_media_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
  videos integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    ids := array(SELECT DISTINCT user_id FROM new_rows);
    videos := array(SELECT DISTINCT user_id FROM new_rows WHERE type = 'video');
  ELSIF TG_OP = 'DELETE' THEN
    ids := array(SELECT DISTINCT user_id FROM old_rows);
    videos := array(SELECT DISTINCT user_id FROM old_rows WHERE type = 'video');
  ELSE
    ids := array(SELECT user_id FROM new_rows UNION SELECT user_id FROM old_rows);
    videos := array(SELECT user_id FROM new_rows WHERE type = 'video' UNION SELECT user_id FROM old_rows WHERE type = 'video');
  END IF;
  -- A video's coming or going changes the "with video" fact of her entries (decision 0734).
  IF cardinality(videos) > 0 THEN
    PERFORM directory_sync(videos);
  END IF;
  PERFORM directory_touch(ids);
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- The facts of the entries there are (before their indexes: one pass, no index upkeep per row; no trigger:
-- no list changes its members or counts).
ALTER TABLE directory_entries DISABLE TRIGGER directory_entries_update;--> statement-breakpoint
UPDATE directory_entries e SET kind = f.kind, bumped_at = f.bumped_at, expires_at = f.expires_at,
  shown_birth_date = f.shown_birth_date, currency = f.currency, price = f.price, incall = f.incall,
  outcall = f.outcall, services = f.services, languages = f.languages, verified = f.verified, video = f.video,
  available_until = f.available_until
FROM directory_facts f WHERE f.listing_id = e.listing_id;--> statement-breakpoint
ALTER TABLE directory_entries ENABLE TRIGGER directory_entries_update;--> statement-breakpoint
ANALYZE directory_entries;--> statement-breakpoint
-- The rank indexes hold every fact a list tests (INCLUDE): a page or a count reads the index alone (an
-- index-only scan), not one heap page per row (decision 0734).
CREATE INDEX "directory_entries_city_rank" ON "directory_entries" USING btree ("city_id","bumped_at" DESC NULLS LAST,"listing_id") INCLUDE ("country_code","cats","expires_at","shown_birth_date","currency","price","incall","outcall","services","languages","verified","video","available_until");--> statement-breakpoint
CREATE INDEX "directory_entries_country_rank" ON "directory_entries" USING btree ("country_code","bumped_at" DESC NULLS LAST,"listing_id") INCLUDE ("cats","expires_at","shown_birth_date","currency","price","incall","outcall","services","languages","verified","video","available_until") WHERE "directory_entries"."is_primary";--> statement-breakpoint
-- Index-only scans need the visibility map kept: vacuum this small, busy table sooner than the default.
ALTER TABLE "directory_entries" SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_insert_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.05);
