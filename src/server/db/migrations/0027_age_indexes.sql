-- An age filter reads entries that show an age (decision 0750): a country or city list filtered by age
-- walked its rank index past every entry that shows none (two in three of the demo data; more on a live
-- site, where the age is off until she turns it on), and the filtered total walked it to the end when few
-- pass: the UK's 72,000 entries at 500,000 profiles, 44 ms for an age, price and service filter, 14-22 ms
-- through this index. The filter names `e.shown_birth_date is not null`, which implies the predicate, so
-- PostgreSQL picks these (generic plans too). Same rank order and INCLUDEd facts as the rank indexes.
CREATE INDEX "directory_entries_country_age" ON "directory_entries" USING btree ("country_code","bumped_at" DESC NULLS LAST,"listing_id") INCLUDE ("cats","expires_at","shown_birth_date","currency","price","incall","outcall","services","languages","verified","video","available_until") WHERE "is_primary" AND "shown_birth_date" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "directory_entries_city_age" ON "directory_entries" USING btree ("city_id","bumped_at" DESC NULLS LAST,"listing_id") INCLUDE ("profile_id","country_code","cats","expires_at","shown_birth_date","currency","price","incall","outcall","services","languages","verified","video","available_until") WHERE "shown_birth_date" IS NOT NULL;
