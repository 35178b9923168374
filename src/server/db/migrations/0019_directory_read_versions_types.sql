-- Migration 0018's version read, mended at 500,000 profiles (decision 0731). Two things were slow once
-- PL/pgSQL kept the plans:
-- - the country code was a `text` variable, so `country_code = code` compared the column as text and no
--   index on listings' (country_code, ...) could serve it: 64 ms per country scope at 500,000 (it is
--   char(2), like the column, now);
-- - "the first end of 'available now' in the scope" was one statement whose kept (generic) plan joined all
--   of directory_entries by hash (45 ms); it is now the walk the per-read plan did: the profiles available
--   now in the order they end (their partial index), each checked against the scope, the first one kept;
-- - a profile's own end of "available now" is read by its key (the planner walked the partial index of
--   everyone available, 790 ms, when its statistics had not yet seen them).
CREATE OR REPLACE FUNCTION directory_available_end(p_at timestamptz, p_country char(2), p_city integer)
RETURNS bigint LANGUAGE plpgsql STABLE AS $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT ap.user_id, ap.available_until FROM profiles ap
      WHERE ap.available_until IS NOT NULL AND ap.available_until > p_at ORDER BY ap.available_until LOOP
    IF p_city IS NOT NULL THEN
      IF EXISTS (SELECT 1 FROM directory_entries e WHERE e.profile_id = r.user_id AND e.city_id = p_city) THEN
        RETURN (extract(epoch from r.available_until) * 1000)::bigint;
      END IF;
    ELSIF EXISTS (SELECT 1 FROM directory_entries e WHERE e.profile_id = r.user_id AND e.country_code = p_country) THEN
      RETURN (extract(epoch from r.available_until) * 1000)::bigint;
    END IF;
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION directory_read_versions(p_at timestamptz, p_keys text[], p_ids integer[])
RETURNS TABLE(o_version text, o_next text, o_live json, o_base text, o_scopes json)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
DECLARE
  tok text;
  dv bigint;
  pm bigint;
  gnext bigint;
  k text;
  kind text;
  a text;
  b text;
  c text;
  part text;
  n bigint;
  code countries.code%TYPE;
  cid integer;
  pid integer;
  acc jsonb := '{}'::jsonb;
BEGIN
  SELECT d.db_token, d.v INTO tok, dv FROM directory_version d;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  pm := (extract(epoch from pg_postmaster_start_time()) * 1000)::bigint;
  -- The next moment anything changes by time alone: a listing's expiry, a tour's start, an "available
  -- now" that ends (0403, 0320).
  gnext := least(
    (extract(epoch from least(
      (SELECT min(l.expires_at) FROM listings l WHERE l.expires_at > p_at),
      (SELECT min(l.tour_starts_at) FROM listings l WHERE l.tour_starts_at > p_at))) * 1000)::bigint,
    (SELECT (extract(epoch from ap.available_until) * 1000)::bigint FROM profiles ap
      WHERE ap.available_until IS NOT NULL AND ap.available_until > p_at ORDER BY ap.available_until LIMIT 1));
  o_version := concat_ws('.', tok, dv, pm, gnext);
  o_next := gnext::text;
  o_live := NULL;
  IF cardinality(p_ids) > 0 THEN
    o_live := (SELECT json_agg(json_build_object('id', p.user_id, 'views', p.views,
        'seen', (extract(epoch from ac.last_seen_at) * 1000)::bigint))
      FROM profiles p JOIN accounts ac ON ac.id = p.user_id WHERE p.user_id = ANY (p_ids));
  END IF;
  o_base := NULL;
  o_scopes := NULL;
  IF cardinality(p_keys) > 0 THEN
    o_base := concat_ws('.', tok, coalesce((SELECT s.v FROM directory_scopes s WHERE s.scope = 'all'), 0), pm);
    FOREACH k IN ARRAY p_keys LOOP
      kind := split_part(k, '|', 1);
      a := split_part(k, '|', 2);
      b := split_part(k, '|', 3);
      c := split_part(k, '|', 4);
      part := NULL;
      n := NULL;
      IF kind = 'g' THEN
        -- Anything a listed profile shows anywhere (search, nearby, the feed).
        part := coalesce((SELECT s.v FROM directory_scopes s WHERE s.scope = 'g'), 0)::text;
        n := gnext;
      ELSIF kind = 'k' THEN
        -- The countries list: its counts change when a listing expires.
        part := coalesce((SELECT s.v FROM directory_scopes s WHERE s.scope = 'n:*'), 0)::text;
        n := (SELECT (extract(epoch from min(l.expires_at)) * 1000)::bigint FROM listings l WHERE l.expires_at > p_at);
      ELSIF kind = 'l' AND b = '' THEN
        -- A country's list of one category.
        SELECT co.code INTO code FROM countries co WHERE co.slug = a;
        IF FOUND THEN
          part := concat_ws('.', code,
            coalesce((SELECT s.v FROM directory_scopes s WHERE s.scope = 'c:' || code || ':' || c), 0));
          n := least(
            (extract(epoch from least(
              (SELECT min(l.expires_at) FROM listings l WHERE l.expires_at > p_at AND l.country_code = code),
              (SELECT min(l.tour_starts_at) FROM listings l WHERE l.tour_starts_at > p_at AND l.country_code = code)))
              * 1000)::bigint,
            directory_available_end(p_at, code, NULL));
        END IF;
      ELSIF kind = 'l' THEN
        -- A city's list of one category.
        SELECT co.code, ci.id INTO code, cid FROM countries co JOIN cities ci ON ci.country_code = co.code
          WHERE co.slug = a AND ci.slug = b;
        IF FOUND THEN
          part := concat_ws('.', cid,
            coalesce((SELECT s.v FROM directory_scopes s WHERE s.scope = 'y:' || code || ':' || cid || ':' || c), 0));
          n := least(
            (extract(epoch from least(
              (SELECT min(l.expires_at) FROM listings l WHERE l.expires_at > p_at AND l.city_id = cid),
              (SELECT min(l.tour_starts_at) FROM listings l WHERE l.tour_starts_at > p_at AND l.city_id = cid)))
              * 1000)::bigint,
            directory_available_end(p_at, NULL, cid));
        END IF;
      ELSIF kind = 'v' THEN
        -- A country's navigation: its counts change when a listing expires.
        SELECT co.code INTO code FROM countries co WHERE co.slug = a;
        IF FOUND THEN
          part := concat_ws('.', code, coalesce((SELECT s.v FROM directory_scopes s WHERE s.scope = 'n:' || code), 0));
          n := (SELECT (extract(epoch from min(l.expires_at)) * 1000)::bigint FROM listings l
            WHERE l.expires_at > p_at AND l.country_code = code);
        END IF;
      ELSIF kind = 'p' OR kind = 'n' THEN
        -- A profile by id (the caller sends canonical integers), or by the name it has now.
        pid := NULL;
        IF kind = 'p' THEN
          IF a ~ '^[0-9]{1,10}$' AND a::bigint <= 2147483647 THEN
            pid := a::integer;
          END IF;
        ELSE
          SELECT p.user_id INTO pid FROM profiles p WHERE lower(p.screen_name) = lower(a);
        END IF;
        IF pid IS NOT NULL THEN
          part := coalesce((SELECT s.v FROM directory_scopes s WHERE s.scope = 'p:' || pid), 0)::text;
          IF kind = 'n' THEN
            part := concat_ws('.', pid, part);
          END IF;
          n := least(
            (extract(epoch from least(
              (SELECT min(l.expires_at) FROM listings l WHERE l.expires_at > p_at AND l.profile_id = pid),
              (SELECT min(l.tour_starts_at) FROM listings l WHERE l.tour_starts_at > p_at AND l.profile_id = pid)))
              * 1000)::bigint,
            (SELECT CASE WHEN ap.available_until > p_at THEN (extract(epoch from ap.available_until) * 1000)::bigint END
              FROM profiles ap WHERE ap.user_id = pid));
        END IF;
      END IF;
      acc := acc || jsonb_build_object(k,
        CASE WHEN part IS NULL THEN NULL ELSE jsonb_build_array(concat_ws('.', part, n), n) END);
    END LOOP;
    o_scopes := acc::json;
  END IF;
  RETURN NEXT;
END $$;
