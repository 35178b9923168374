CREATE TABLE "directory_counts" (
	"country_code" char(2) NOT NULL,
	"city_id" integer NOT NULL,
	"category" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "directory_counts_country_code_city_id_category_pk" PRIMARY KEY("country_code","city_id","category")
);
--> statement-breakpoint
CREATE TABLE "directory_entries" (
	"listing_id" integer PRIMARY KEY NOT NULL,
	"profile_id" integer NOT NULL,
	"country_code" char(2) NOT NULL,
	"city_id" integer NOT NULL,
	"is_primary" boolean NOT NULL,
	"cats" text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "directory_pending" (
	"xid" bigint NOT NULL,
	"scope" text NOT NULL,
	"country_code" char(2),
	"city_id" integer,
	"category" text,
	"d" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "directory_pending_xid_scope_pk" PRIMARY KEY("xid","scope")
);
--> statement-breakpoint
CREATE TABLE "directory_scopes" (
	"scope" text PRIMARY KEY NOT NULL,
	"v" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "directory_entries" ADD CONSTRAINT "directory_entries_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "directory_counts_by_category" ON "directory_counts" USING btree ("category","city_id");--> statement-breakpoint
CREATE INDEX "directory_entries_profile" ON "directory_entries" USING btree ("profile_id");--> statement-breakpoint
CREATE INDEX "listings_country_expires" ON "listings" USING btree ("country_code","expires_at") WHERE "listings"."expires_at" is not null;--> statement-breakpoint
CREATE INDEX "listings_city_expires" ON "listings" USING btree ("city_id","expires_at") WHERE "listings"."expires_at" is not null;--> statement-breakpoint
-- Versions per scope and counts kept in the writing transaction (docs/decisions/0730). Statement-level
-- triggers (one run per statement, transition tables: a bulk insert of the seed costs a few set-based
-- statements, not one per row) write the transaction's scopes and count changes to directory_pending;
-- at commit one deferred trigger folds them into directory_scopes and directory_counts, after taking the
-- directory_version row (as before, the one lock every committing writer takes, last): scope and count
-- rows are only ever locked under it, so no two writers wait on each other in a circle.
CREATE FUNCTION directory_cats(gender text, dom boolean) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT array_remove(ARRAY['escorts', CASE WHEN gender IN ('female', 'male', 'trans') THEN gender END,
    CASE WHEN dom THEN 'dom' END], NULL)
$$;--> statement-breakpoint
CREATE FUNCTION directory_sync(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- directory_entries as listings and profiles say now, for these profiles; the entries' own trigger
  -- turns each row that goes or comes into count changes.
  DELETE FROM directory_entries e WHERE e.profile_id = ANY(ids) AND NOT EXISTS (
    SELECT 1 FROM listings l JOIN profiles p ON p.user_id = l.profile_id
    WHERE l.id = e.listing_id AND p.listed AND l.country_code = e.country_code AND l.city_id = e.city_id
      AND l.country_primary = e.is_primary AND directory_cats(p.gender, p.dominatrix) = e.cats);
  INSERT INTO directory_entries (listing_id, profile_id, country_code, city_id, is_primary, cats)
  SELECT l.id, l.profile_id, l.country_code, l.city_id, l.country_primary, directory_cats(p.gender, p.dominatrix)
  FROM listings l JOIN profiles p ON p.user_id = l.profile_id
  WHERE l.profile_id = ANY(ids) AND p.listed
  ON CONFLICT (listing_id) DO NOTHING;
END;
$$;--> statement-breakpoint
CREATE FUNCTION directory_touch(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  PERFORM set_config('directory.pending', 'on', true);
  -- What these profiles show changed: their own answer, and every list they are on now (the lists they
  -- left are named by the entries' trigger).
  INSERT INTO directory_pending (xid, scope)
  SELECT txid_current(), s FROM (
    SELECT 'p:' || i AS s FROM unnest(ids) i
    UNION SELECT 'c:' || e.country_code || ':' || c FROM directory_entries e, unnest(e.cats) c WHERE e.profile_id = ANY(ids)
    UNION SELECT 'y:' || e.country_code || ':' || e.city_id || ':' || c FROM directory_entries e, unnest(e.cats) c
      WHERE e.profile_id = ANY(ids)
    UNION SELECT 'g' FROM directory_entries e WHERE e.profile_id = ANY(ids)
  ) x
  ON CONFLICT (xid, scope) DO NOTHING;
END;
$$;--> statement-breakpoint
CREATE FUNCTION directory_mark(name text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('directory.pending', 'on', true);
  INSERT INTO directory_pending (xid, scope) VALUES (txid_current(), name) ON CONFLICT DO NOTHING;
END;
$$;--> statement-breakpoint
CREATE FUNCTION directory_entries_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The scope's row may be there already, named by directory_touch (without what it counts): the count's
  -- columns are set here in any case.
  -- A statement trigger runs for statements that changed no row too (the sync's delete, mostly).
  IF TG_OP = 'INSERT' THEN
    IF NOT EXISTS (SELECT 1 FROM new_rows) THEN RETURN NULL; END IF;
  ELSIF NOT EXISTS (SELECT 1 FROM old_rows) THEN
    RETURN NULL;
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
CREATE FUNCTION directory_listings_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    ids := array(SELECT DISTINCT profile_id FROM new_rows);
  ELSIF TG_OP = 'DELETE' THEN
    ids := array(SELECT DISTINCT profile_id FROM old_rows);
  ELSE
    ids := array(SELECT profile_id FROM new_rows UNION SELECT profile_id FROM old_rows);
    -- A listed profile's listing whose expiry (or anything but its rank) changed: the counts of its
    -- country change at another moment. A scope's version holds its next expiry, but a changed expiry
    -- must change the version now (or an older answer made under the same counter and next expiry could
    -- come back). A top-up (bumped_at alone) changes no count.
    IF EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n ON n.id = o.id
        JOIN directory_entries e ON e.listing_id = n.id
        WHERE (to_jsonb(o) - 'bumped_at') IS DISTINCT FROM (to_jsonb(n) - 'bumped_at')) THEN
      PERFORM set_config('directory.pending', 'on', true);
      INSERT INTO directory_pending (xid, scope)
      SELECT txid_current(), s FROM (
        SELECT 'n:' || o.country_code AS s FROM old_rows o JOIN new_rows n ON n.id = o.id
          WHERE (to_jsonb(o) - 'bumped_at') IS DISTINCT FROM (to_jsonb(n) - 'bumped_at')
        UNION SELECT 'n:' || n.country_code FROM old_rows o JOIN new_rows n ON n.id = o.id
          WHERE (to_jsonb(o) - 'bumped_at') IS DISTINCT FROM (to_jsonb(n) - 'bumped_at')
        UNION SELECT 'n:*'
      ) x
      ON CONFLICT DO NOTHING;
    END IF;
  END IF;
  PERFORM directory_sync(ids);
  PERFORM directory_touch(ids);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION directory_profiles_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    ids := array(SELECT user_id FROM new_rows);
  ELSIF TG_OP = 'DELETE' THEN
    ids := array(SELECT user_id FROM old_rows);
  ELSE
    -- The view counter alone changes no answer (its figure is read live: docs/decisions/0700).
    ids := array(SELECT n.user_id FROM new_rows n JOIN old_rows o ON o.user_id = n.user_id
      WHERE (to_jsonb(o) - 'views') IS DISTINCT FROM (to_jsonb(n) - 'views'));
  END IF;
  IF cardinality(ids) > 0 THEN
    PERFORM directory_sync(ids);
    PERFORM directory_touch(ids);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION directory_accounts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    ids := array(SELECT id FROM new_rows);
  ELSIF TG_OP = 'DELETE' THEN
    ids := array(SELECT id FROM old_rows);
  ELSE
    -- Nor does "last seen" (read live).
    ids := array(SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (to_jsonb(o) - 'last_seen_at') IS DISTINCT FROM (to_jsonb(n) - 'last_seen_at'));
  END IF;
  IF cardinality(ids) > 0 THEN
    PERFORM directory_touch(ids);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION directory_media_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    ids := array(SELECT DISTINCT user_id FROM new_rows);
  ELSIF TG_OP = 'DELETE' THEN
    ids := array(SELECT DISTINCT user_id FROM old_rows);
  ELSE
    ids := array(SELECT user_id FROM new_rows UNION SELECT user_id FROM old_rows);
  END IF;
  PERFORM directory_touch(ids);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION directory_scope_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- TG_ARGV[0]: the scope every answer that reads this table depends on.
  PERFORM directory_mark(TG_ARGV[0]);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION directory_entries_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE directory_counts SET n = 0 WHERE n <> 0;
  PERFORM directory_mark('all');
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION directory_commit() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  x bigint := txid_current();
  nv bigint;
BEGIN
  -- Deferred: once per pending row, at commit; the first one folds them all, the others find nothing
  -- new (unless rows came after the fold, e.g. after SET CONSTRAINTS ALL IMMEDIATE). A setting, not a
  -- look at the table: its index would hold every row already folded and deleted (not yet vacuumed) for
  -- each of them.
  IF current_setting('directory.pending', true) IS DISTINCT FROM 'on' THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('directory.pending', 'off', true);
  UPDATE directory_version SET v = v + 1 RETURNING v INTO nv;
  INSERT INTO directory_scopes AS s (scope, v)
  SELECT scope, nv FROM directory_pending WHERE xid = x ORDER BY scope
  ON CONFLICT (scope) DO UPDATE SET v = excluded.v;
  INSERT INTO directory_counts AS c (country_code, city_id, category, n)
  SELECT country_code, city_id, category, d FROM directory_pending
  WHERE xid = x AND category IS NOT NULL AND d <> 0 ORDER BY 1, 2, 3
  ON CONFLICT (country_code, city_id, category) DO UPDATE SET n = c.n + excluded.n;
  DELETE FROM directory_pending WHERE xid = x;
  -- docs/decisions/0720: the embedded database's process learns of the commit without asking.
  IF current_setting('directory.watch', true) = 'on' THEN
    PERFORM pg_notify('directory_version', nv::text);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
DROP TRIGGER profiles_directory_write ON profiles;--> statement-breakpoint
DROP TRIGGER profiles_directory_update ON profiles;--> statement-breakpoint
DROP TRIGGER accounts_directory_write ON accounts;--> statement-breakpoint
DROP TRIGGER accounts_directory_update ON accounts;--> statement-breakpoint
DROP TRIGGER listings_directory ON listings;--> statement-breakpoint
DROP TRIGGER media_directory ON media;--> statement-breakpoint
DROP TRIGGER cities_directory ON cities;--> statement-breakpoint
DROP TRIGGER countries_directory ON countries;--> statement-breakpoint
DROP TRIGGER search_words_directory ON search_words;--> statement-breakpoint
DROP TRIGGER profiles_directory_truncate ON profiles;--> statement-breakpoint
DROP TRIGGER accounts_directory_truncate ON accounts;--> statement-breakpoint
DROP TRIGGER listings_directory_truncate ON listings;--> statement-breakpoint
DROP TRIGGER media_directory_truncate ON media;--> statement-breakpoint
DROP TRIGGER cities_directory_truncate ON cities;--> statement-breakpoint
DROP TRIGGER countries_directory_truncate ON countries;--> statement-breakpoint
DROP TRIGGER search_words_directory_truncate ON search_words;--> statement-breakpoint
DROP TRIGGER city_names_directory ON city_names;--> statement-breakpoint
DROP TRIGGER city_names_directory_truncate ON city_names;--> statement-breakpoint
DROP FUNCTION directory_bump();--> statement-breakpoint
INSERT INTO directory_entries (listing_id, profile_id, country_code, city_id, is_primary, cats)
SELECT l.id, l.profile_id, l.country_code, l.city_id, l.country_primary, directory_cats(p.gender, p.dominatrix)
FROM listings l JOIN profiles p ON p.user_id = l.profile_id WHERE p.listed;--> statement-breakpoint
INSERT INTO directory_counts (country_code, city_id, category, n)
SELECT e.country_code, 0, c, count(*) FROM directory_entries e, unnest(e.cats) c WHERE e.is_primary GROUP BY 1, 3
UNION ALL
SELECT e.country_code, e.city_id, c, count(*) FROM directory_entries e, unnest(e.cats) c GROUP BY 1, 2, 3;--> statement-breakpoint
UPDATE directory_version SET v = v + 1;--> statement-breakpoint
CREATE TRIGGER directory_entries_insert AFTER INSERT ON directory_entries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION directory_entries_changed();--> statement-breakpoint
CREATE TRIGGER directory_entries_update AFTER UPDATE ON directory_entries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION directory_entries_changed();--> statement-breakpoint
CREATE TRIGGER directory_entries_delete AFTER DELETE ON directory_entries REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION directory_entries_changed();--> statement-breakpoint
CREATE TRIGGER directory_entries_truncate AFTER TRUNCATE ON directory_entries FOR EACH STATEMENT EXECUTE FUNCTION directory_entries_truncated();--> statement-breakpoint
CREATE TRIGGER listings_directory_insert AFTER INSERT ON listings REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION directory_listings_changed();--> statement-breakpoint
CREATE TRIGGER listings_directory_update AFTER UPDATE ON listings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION directory_listings_changed();--> statement-breakpoint
CREATE TRIGGER listings_directory_delete AFTER DELETE ON listings REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION directory_listings_changed();--> statement-breakpoint
CREATE TRIGGER profiles_directory_insert AFTER INSERT ON profiles REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION directory_profiles_changed();--> statement-breakpoint
CREATE TRIGGER profiles_directory_update AFTER UPDATE ON profiles REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION directory_profiles_changed();--> statement-breakpoint
CREATE TRIGGER profiles_directory_delete AFTER DELETE ON profiles REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION directory_profiles_changed();--> statement-breakpoint
CREATE TRIGGER accounts_directory_insert AFTER INSERT ON accounts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION directory_accounts_changed();--> statement-breakpoint
CREATE TRIGGER accounts_directory_update AFTER UPDATE ON accounts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION directory_accounts_changed();--> statement-breakpoint
CREATE TRIGGER accounts_directory_delete AFTER DELETE ON accounts REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION directory_accounts_changed();--> statement-breakpoint
CREATE TRIGGER media_directory_insert AFTER INSERT ON media REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION directory_media_changed();--> statement-breakpoint
CREATE TRIGGER media_directory_update AFTER UPDATE ON media REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION directory_media_changed();--> statement-breakpoint
CREATE TRIGGER media_directory_delete AFTER DELETE ON media REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION directory_media_changed();--> statement-breakpoint
CREATE TRIGGER cities_directory AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cities FOR EACH STATEMENT EXECUTE FUNCTION directory_scope_changed('all');--> statement-breakpoint
CREATE TRIGGER countries_directory AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON countries FOR EACH STATEMENT EXECUTE FUNCTION directory_scope_changed('all');--> statement-breakpoint
CREATE TRIGGER city_names_directory AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON city_names FOR EACH STATEMENT EXECUTE FUNCTION directory_scope_changed('all');--> statement-breakpoint
CREATE TRIGGER search_words_directory AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON search_words FOR EACH STATEMENT EXECUTE FUNCTION directory_scope_changed('g');--> statement-breakpoint
CREATE TRIGGER profiles_directory_truncate AFTER TRUNCATE ON profiles FOR EACH STATEMENT EXECUTE FUNCTION directory_scope_changed('all');--> statement-breakpoint
CREATE TRIGGER accounts_directory_truncate AFTER TRUNCATE ON accounts FOR EACH STATEMENT EXECUTE FUNCTION directory_scope_changed('all');--> statement-breakpoint
CREATE TRIGGER listings_directory_truncate AFTER TRUNCATE ON listings FOR EACH STATEMENT EXECUTE FUNCTION directory_scope_changed('all');--> statement-breakpoint
CREATE TRIGGER media_directory_truncate AFTER TRUNCATE ON media FOR EACH STATEMENT EXECUTE FUNCTION directory_scope_changed('all');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER directory_pending_commit AFTER INSERT ON directory_pending DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION directory_commit();
