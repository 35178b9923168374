-- The nearby walk reads a city's entries from this index alone (decision 0738): it needs each entry's
-- profile too (a profile is shown once, at her nearest city), so the index INCLUDEs profile_id beside the
-- facts (the lists' pages and counts read the same index as before).
DROP INDEX IF EXISTS "directory_entries_city_rank";--> statement-breakpoint
CREATE INDEX "directory_entries_city_rank" ON "directory_entries" USING btree ("city_id","bumped_at" DESC NULLS LAST,"listing_id") INCLUDE ("profile_id","country_code","cats","expires_at","shown_birth_date","currency","price","incall","outcall","services","languages","verified","video","available_until");
