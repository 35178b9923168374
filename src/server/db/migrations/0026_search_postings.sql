-- Search's postings (decision 0748): a search for a word read, for every entry its text index offered, one
-- block of directory_entries' heap (rows of about 400 bytes, 19 to a block) to recheck the text and read
-- the rank keys: 1,118 blocks and 6-22 ms for "madrid" at 50,000 profiles, cached or not, ten times that at
-- 500,000. The postings hold each home entry's words (search_words_of: each once, three characters or
-- more) with her rank keys, in (word, rank) order: the entries whose text holds a word are one range of
-- this index, read index-only (15 blocks, under a millisecond for "madrid"). The vocabulary is every word
-- the postings hold, by trigrams: the words a search's word is part of.
-- No entry changes while the postings are filled and their triggers made (another instance may be
-- serving): a write between the two would never reach them.
LOCK TABLE directory_entries IN SHARE MODE;--> statement-breakpoint
CREATE TABLE "search_postings" (
	"word" text NOT NULL,
	"bumped_at" timestamp with time zone NOT NULL,
	"listing_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_vocabulary" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
INSERT INTO search_postings (word, bumped_at, listing_id)
  SELECT w, e.bumped_at, e.listing_id FROM directory_entries e, search_words_of(e.search_text) AS w
  WHERE e.kind = 'home';--> statement-breakpoint
INSERT INTO search_vocabulary (word) SELECT DISTINCT word FROM search_postings ORDER BY 1;--> statement-breakpoint
CREATE UNIQUE INDEX "search_postings_key" ON "search_postings" USING btree ("word","bumped_at" DESC NULLS LAST,"listing_id");--> statement-breakpoint
CREATE INDEX "search_vocabulary_trgm" ON "search_vocabulary" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
-- A filtered search tests each match's facts: by listing id, index-only (decision 0748), not a heap block
-- of directory_entries per match (drizzle has no word for INCLUDE: not in schema.ts, as 0020's).
CREATE INDEX "directory_entries_home_facts" ON "directory_entries" USING btree ("listing_id") INCLUDE ("shown_birth_date","currency","price","incall","outcall","services","languages","verified","video","available_until") WHERE "kind" = 'home';--> statement-breakpoint
-- Kept by directory_entries' changes, a statement at a time: an entry's postings come with her home entry
-- and go with it; a change of its kind, rank keys or text replaces them (other facts write nothing here).
-- A word new to the vocabulary is added in word order (two writers of the same new words wait, never
-- deadlock); a known one writes nothing.
CREATE FUNCTION search_vocabulary_add(words text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- Only a statement that added postings touches the vocabulary (so search_vocabulary_prune waits for
  -- those writers alone), after its postings (so prune, once it has its lock, sees them).
  IF words IS NOT NULL THEN
    INSERT INTO search_vocabulary (word) SELECT unnest(words) ON CONFLICT (word) DO NOTHING;
  END IF;
END;
$$;--> statement-breakpoint
CREATE FUNCTION search_postings_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  words text[];
BEGIN
  WITH added AS (
    INSERT INTO search_postings (word, bumped_at, listing_id)
    SELECT w, e.bumped_at, e.listing_id FROM new_rows e, search_words_of(e.search_text) AS w WHERE e.kind = 'home'
    RETURNING word)
  SELECT array_agg(DISTINCT word ORDER BY word) INTO words FROM added;
  PERFORM search_vocabulary_add(words);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION search_postings_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_postings p USING old_rows o, search_words_of(o.search_text) AS w
  WHERE o.kind = 'home' AND p.word = w AND p.bumped_at = o.bumped_at AND p.listing_id = o.listing_id;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION search_postings_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  words text[];
BEGIN
  DELETE FROM search_postings p USING old_rows o LEFT JOIN new_rows n ON n.listing_id = o.listing_id,
    search_words_of(o.search_text) AS w
  WHERE o.kind = 'home' AND (n.listing_id IS NULL
      OR (n.kind, n.bumped_at, n.search_text) IS DISTINCT FROM (o.kind, o.bumped_at, o.search_text))
    AND p.word = w AND p.bumped_at = o.bumped_at AND p.listing_id = o.listing_id;
  WITH added AS (
    INSERT INTO search_postings (word, bumped_at, listing_id)
    SELECT w, n.bumped_at, n.listing_id FROM new_rows n LEFT JOIN old_rows o ON o.listing_id = n.listing_id,
      search_words_of(n.search_text) AS w
    WHERE n.kind = 'home' AND (o.listing_id IS NULL
        OR (n.kind, n.bumped_at, n.search_text) IS DISTINCT FROM (o.kind, o.bumped_at, o.search_text))
    RETURNING word)
  SELECT array_agg(DISTINCT word ORDER BY word) INTO words FROM added;
  PERFORM search_vocabulary_add(words);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION search_postings_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE search_postings;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- The words no posting holds any more go (after a fold that changed search_words). Under a lock no
-- writer of postings shares: each writer has added its words before its postings can be seen, so a word
-- found without postings here has none, committed or coming. Writers queue behind the lock while it
-- waits, so it waits briefly: a busy moment skips the prune (-1) until the next fold.
CREATE FUNCTION search_vocabulary_prune() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  PERFORM set_config('lock_timeout', '200ms', true);
  BEGIN
    LOCK TABLE search_vocabulary IN SHARE MODE;
  EXCEPTION WHEN lock_not_available THEN
    RETURN -1;
  END;
  PERFORM set_config('lock_timeout', '0', true);
  DELETE FROM search_vocabulary v WHERE NOT EXISTS (SELECT 1 FROM search_postings p WHERE p.word = v.word);
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END;
$$;--> statement-breakpoint
CREATE TRIGGER search_postings_insert AFTER INSERT ON directory_entries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_postings_inserted();--> statement-breakpoint
CREATE TRIGGER search_postings_update AFTER UPDATE ON directory_entries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_postings_updated();--> statement-breakpoint
CREATE TRIGGER search_postings_delete AFTER DELETE ON directory_entries REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_postings_deleted();--> statement-breakpoint
CREATE TRIGGER search_postings_truncate AFTER TRUNCATE ON directory_entries
  FOR EACH STATEMENT EXECUTE FUNCTION search_postings_truncated();--> statement-breakpoint
ANALYZE search_postings;--> statement-breakpoint
ANALYZE search_vocabulary;
