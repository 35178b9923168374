-- search_words kept as profiles change (decision 0739) instead of rebuilt from every listed profile's text
-- every 10 minutes (12 s of one core at 500,000 profiles, also 2 s after every start, and a turn of the
-- 'g' scope each time, changed or not). Triggers on profiles write what a change does to each word's count
-- (one row per word and change: no writer waits on a busy word's row); foldSearchWords (the periodic task)
-- adds them into search_words and deletes them, and turns nothing when nothing changed.
CREATE TABLE "search_words_delta" (
	"word" text NOT NULL,
	"delta" integer NOT NULL
);--> statement-breakpoint
-- The words of a text as search_words counts them: each once, three characters or more.
CREATE FUNCTION search_words_of(t text) RETURNS SETOF text LANGUAGE sql STABLE AS $$
  SELECT DISTINCT w FROM regexp_split_to_table(t, '[^[:alnum:]]+') AS w WHERE length(w) >= 3
$$;--> statement-breakpoint
CREATE FUNCTION search_words_profiles_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words_delta (word, delta)
  SELECT w, count(*) FROM new_rows n, search_words_of(n.search_text) AS w WHERE n.listed GROUP BY w;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION search_words_profiles_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words_delta (word, delta)
  SELECT w, -count(*) FROM old_rows o, search_words_of(o.search_text) AS w WHERE o.listed GROUP BY w;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION search_words_profile_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words_delta (word, delta)
  SELECT w, sum(d) FROM (
    SELECT w, -1 AS d FROM search_words_of(OLD.search_text) AS w WHERE OLD.listed
    UNION ALL
    SELECT w, 1 FROM search_words_of(NEW.search_text) AS w WHERE NEW.listed
  ) x GROUP BY w HAVING sum(d) <> 0;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER search_words_profiles_insert AFTER INSERT ON profiles REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_profiles_inserted();--> statement-breakpoint
CREATE TRIGGER search_words_profiles_delete AFTER DELETE ON profiles REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_profiles_deleted();--> statement-breakpoint
-- Row by row: only a change of a listed profile's text, or of whether she is listed, writes anything
-- (a counted view updates profiles too, and must not pay for this).
CREATE TRIGGER search_words_profile_update AFTER UPDATE OF search_text, listed ON profiles FOR EACH ROW
  WHEN (OLD.listed IS DISTINCT FROM NEW.listed OR (NEW.listed AND OLD.search_text IS DISTINCT FROM NEW.search_text))
  EXECUTE FUNCTION search_words_profile_updated();--> statement-breakpoint
-- The changes written so far, added into search_words (words in a fixed order; a word no listed profile
-- uses any more goes). Nothing to fold: no statement on search_words, so no scope turns.
CREATE FUNCTION search_words_fold() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM search_words_delta) THEN
    RETURN 0;
  END IF;
  WITH gone AS (DELETE FROM search_words_delta RETURNING word, delta),
  sums AS (SELECT word, sum(delta)::integer AS d FROM gone GROUP BY word HAVING sum(delta) <> 0)
  INSERT INTO search_words AS s (word, profiles) SELECT word, d FROM sums ORDER BY word
  ON CONFLICT (word) DO UPDATE SET profiles = s.profiles + excluded.profiles;
  GET DIAGNOSTICS n = ROW_COUNT;
  IF n > 0 THEN
    DELETE FROM search_words WHERE profiles <= 0;
  END IF;
  RETURN n;
END;
$$;--> statement-breakpoint
-- The whole list again from every listed profile's text (the seed, and here once): no profile text can
-- change meanwhile (a change writes search_words_delta, whose lock this holds to the commit), and the
-- changes written before are in the profiles read, so they go.
CREATE FUNCTION search_words_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE search_words_delta IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM search_words_delta;
  CREATE TEMPORARY TABLE fresh_words ON COMMIT DROP AS
    SELECT w AS word, count(*)::integer AS profiles
    FROM profiles p, search_words_of(p.search_text) AS w WHERE p.listed GROUP BY w;
  DELETE FROM search_words s WHERE NOT EXISTS (SELECT 1 FROM fresh_words f WHERE f.word = s.word);
  INSERT INTO search_words AS s (word, profiles) SELECT word, profiles FROM fresh_words ORDER BY word
  ON CONFLICT (word) DO UPDATE SET profiles = excluded.profiles WHERE s.profiles <> excluded.profiles;
  DROP TABLE fresh_words;
END;
$$;--> statement-breakpoint
SELECT search_words_rebuild();
