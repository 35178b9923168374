DROP INDEX "media_phash_b0";--> statement-breakpoint
DROP INDEX "media_phash_b1";--> statement-breakpoint
DROP INDEX "media_phash_b2";--> statement-breakpoint
DROP INDEX "media_phash_b3";--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "phash_mirror" bigint;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "phash_version" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "media_phash_b0" ON "media" USING btree ("phash_b0","phash_version","phash","id");--> statement-breakpoint
CREATE INDEX "media_phash_b1" ON "media" USING btree ("phash_b1","phash_version","phash","id");--> statement-breakpoint
CREATE INDEX "media_phash_b2" ON "media" USING btree ("phash_b2","phash_version","phash","id");--> statement-breakpoint
CREATE INDEX "media_phash_b3" ON "media" USING btree ("phash_b3","phash_version","phash","id");