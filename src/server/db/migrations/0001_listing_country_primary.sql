DROP INDEX "listings_country_rank";--> statement-breakpoint
DROP INDEX "listings_profile";--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "country_primary" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "listings_home_rank" ON "listings" USING btree ("bumped_at" DESC NULLS LAST,"id") WHERE "listings"."kind" = 'home';--> statement-breakpoint
CREATE INDEX "listings_country_rank" ON "listings" USING btree ("country_code","bumped_at" DESC NULLS LAST,"id") WHERE "listings"."country_primary";--> statement-breakpoint
CREATE INDEX "listings_profile" ON "listings" USING btree ("profile_id","country_code");