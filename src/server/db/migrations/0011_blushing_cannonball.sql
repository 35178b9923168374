ALTER TABLE "listings" ADD COLUMN "paid_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "tour_starts_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "listings_tour_starts" ON "listings" USING btree ("tour_starts_at") WHERE "listings"."tour_starts_at" is not null;--> statement-breakpoint
CREATE INDEX "listings_country_tour_starts" ON "listings" USING btree ("country_code","tour_starts_at") WHERE "listings"."tour_starts_at" is not null;--> statement-breakpoint
CREATE INDEX "listings_city_tour_starts" ON "listings" USING btree ("city_id","tour_starts_at") WHERE "listings"."tour_starts_at" is not null;--> statement-breakpoint
-- Decision 0403: the paid days of running additional locations are what they were listed for; a tour
-- starts at midnight of its first day and its listing ends with its last day, in the city's time zone.
UPDATE "listings" SET "paid_until" = "expires_at" WHERE "kind" = 'additional';--> statement-breakpoint
UPDATE "listings" l SET
  "tour_starts_at" = (l."tour_from"::timestamp AT TIME ZONE c."timezone"),
  "expires_at" = least(l."expires_at", ((l."tour_until" + 1)::timestamp AT TIME ZONE c."timezone"))
FROM "cities" c
WHERE c."id" = l."city_id" AND l."kind" = 'additional' AND (l."tour_from" IS NOT NULL OR l."tour_until" IS NOT NULL);
