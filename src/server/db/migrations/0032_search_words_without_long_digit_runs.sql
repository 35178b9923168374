-- Issue 42 item 4 (decision 0810): the search index keeps no run of 13 or more digits as a word. The card
-- guard lets a phone number written from "+" through ("+62 812 3456 7890" in a heading), but
-- search_words_of split it at the signs and kept "6281234567890" as one word, which alone could read as
-- a card number. Such a word finds nothing a visitor types anyway (a number is typed with its spaces).
-- The words already kept go from every table that holds them, so no trigger later looks for them.
CREATE OR REPLACE FUNCTION search_words_of(t text) RETURNS SETOF text LANGUAGE sql STABLE AS $$
  SELECT DISTINCT w FROM regexp_split_to_table(t, '[^[:alnum:]]+') AS w WHERE length(w) >= 3 AND w !~ '^[0-9]{13,}$'
$$;--> statement-breakpoint
DELETE FROM search_postings WHERE word ~ '^[0-9]{13,}$';--> statement-breakpoint
DELETE FROM search_vocabulary WHERE word ~ '^[0-9]{13,}$';--> statement-breakpoint
DELETE FROM search_words WHERE word ~ '^[0-9]{13,}$';--> statement-breakpoint
DELETE FROM search_words_delta WHERE word ~ '^[0-9]{13,}$';
