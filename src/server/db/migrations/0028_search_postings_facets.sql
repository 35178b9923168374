-- Facets in the postings (decision 0752): a filtered search tested each candidate's facts by one random
-- lookup in directory_entries_home_facts (98 MB at 500,000 profiles), ~420 of them for the count of a
-- service and in-call filter; cold, those reads were its p99 (37-46 ms). The postings now carry the facts
-- a filter tests as yes or no (in-call, out-call, verified, video, each service) as bits INCLUDEd in their
-- index, so those filters are tested in the index range the search reads anyway; age, price, languages
-- and "available now" still look the entry up. Bits: in-call 1, out-call 2, verified 4, video 8, then
-- service i of SERVICES (src/shared/constants.ts, in its order) 1 << (4 + i): 28 services fill the 32 bits
-- (the last is the sign bit); a new service is a new migration (search-postings.test compares the lists).
-- The table is written anew (an update of every posting would double it) while no entry changes, with
-- its index and statistics, before it takes the old one's place: searches on other instances read the
-- old postings until then, and wait only for the swap (the drop and the renames), not for the build.
LOCK TABLE directory_entries IN SHARE MODE;--> statement-breakpoint
CREATE FUNCTION search_facets(services text[], incall boolean, outcall boolean, verified boolean, video boolean)
RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (CASE WHEN incall THEN 1 ELSE 0 END) | (CASE WHEN outcall THEN 2 ELSE 0 END)
    | (CASE WHEN verified THEN 4 ELSE 0 END) | (CASE WHEN video THEN 8 ELSE 0 END)
    | coalesce((SELECT bit_or(1 << (i + 3)) FROM unnest(services) s,
        array_position(ARRAY['massage','gfe','bdsm','dinner_date','travel_companion','overnight','role_play','striptease','lap_dance','couples','duo','domination','submission','fetish','foot_fetish','kissing','cuddling','erotic_massage','tantric_massage','shower_together','lingerie','uniforms','video_call','social_events','weekend_trips','body_worship','spanking','tie_and_tease']::text[], s) AS i WHERE i IS NOT NULL), 0)
$$;--> statement-breakpoint
CREATE TABLE "search_postings_next" (
	"word" text NOT NULL,
	"bumped_at" timestamp with time zone NOT NULL,
	"listing_id" integer NOT NULL,
	"facets" integer DEFAULT 0 NOT NULL
);--> statement-breakpoint
-- Each entry's facets once, then her words (`offset 0`: in the select list beside the words, the
-- function ran once per posting: 9.8 s for 50,000 profiles' 807,000 postings, 2.1 s this way).
INSERT INTO search_postings_next (word, bumped_at, listing_id, facets)
  SELECT w, e.bumped_at, e.listing_id, e.facets
  FROM (SELECT e.bumped_at, e.listing_id, e.search_text,
      search_facets(e.services, e.incall, e.outcall, e.verified, e.video) AS facets
    FROM directory_entries e WHERE e.kind = 'home' OFFSET 0) e, search_words_of(e.search_text) AS w;--> statement-breakpoint
CREATE UNIQUE INDEX "search_postings_next_key" ON "search_postings_next" USING btree ("word","bumped_at" DESC NULLS LAST,"listing_id") INCLUDE ("facets");--> statement-breakpoint
ANALYZE search_postings_next;--> statement-breakpoint
DROP TABLE search_postings;--> statement-breakpoint
ALTER TABLE search_postings_next RENAME TO search_postings;--> statement-breakpoint
ALTER INDEX search_postings_next_key RENAME TO search_postings_key;--> statement-breakpoint
-- As 0026's, with the facets: an entry's postings are written anew when her kind, rank keys, text or
-- facets change (the facets as bits: the same services in another order write nothing). A change of
-- facets alone adds her words to the vocabulary again (each known: nothing written, 0026's note on who
-- touches the vocabulary now counts these writers too).
CREATE OR REPLACE FUNCTION search_postings_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  words text[];
BEGIN
  WITH added AS (
    INSERT INTO search_postings (word, bumped_at, listing_id, facets)
    SELECT w, e.bumped_at, e.listing_id, e.facets
    FROM (SELECT e.bumped_at, e.listing_id, e.search_text,
        search_facets(e.services, e.incall, e.outcall, e.verified, e.video) AS facets
      FROM new_rows e WHERE e.kind = 'home' OFFSET 0) e, search_words_of(e.search_text) AS w
    RETURNING word)
  SELECT array_agg(DISTINCT word ORDER BY word) INTO words FROM added;
  PERFORM search_vocabulary_add(words);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_postings_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  words text[];
BEGIN
  DELETE FROM search_postings p USING old_rows o LEFT JOIN new_rows n ON n.listing_id = o.listing_id,
    search_words_of(o.search_text) AS w
  WHERE o.kind = 'home' AND (n.listing_id IS NULL
      OR (n.kind, n.bumped_at, n.search_text, search_facets(n.services, n.incall, n.outcall, n.verified, n.video))
        IS DISTINCT FROM (o.kind, o.bumped_at, o.search_text, search_facets(o.services, o.incall, o.outcall, o.verified, o.video)))
    AND p.word = w AND p.bumped_at = o.bumped_at AND p.listing_id = o.listing_id;
  WITH added AS (
    INSERT INTO search_postings (word, bumped_at, listing_id, facets)
    SELECT w, n.bumped_at, n.listing_id, n.facets
    FROM (SELECT n.bumped_at, n.listing_id, n.search_text,
        search_facets(n.services, n.incall, n.outcall, n.verified, n.video) AS facets
      FROM new_rows n LEFT JOIN old_rows o ON o.listing_id = n.listing_id
      WHERE n.kind = 'home' AND (o.listing_id IS NULL
        OR (n.kind, n.bumped_at, n.search_text, search_facets(n.services, n.incall, n.outcall, n.verified, n.video))
          IS DISTINCT FROM (o.kind, o.bumped_at, o.search_text, search_facets(o.services, o.incall, o.outcall, o.verified, o.video)))
      OFFSET 0) n, search_words_of(n.search_text) AS w
    RETURNING word)
  SELECT array_agg(DISTINCT word ORDER BY word) INTO words FROM added;
  PERFORM search_vocabulary_add(words);
  RETURN NULL;
END;
$$;
