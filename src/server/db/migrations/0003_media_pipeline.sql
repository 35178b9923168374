ALTER TABLE "media" ADD COLUMN "placeholder" text;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "phash" bigint;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "phash_b0" integer;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "phash_b1" integer;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "phash_b2" integer;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "phash_b3" integer;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "progress" smallint DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "duration" double precision;--> statement-breakpoint
CREATE INDEX "media_phash_b0" ON "media" USING btree ("phash_b0");--> statement-breakpoint
CREATE INDEX "media_phash_b1" ON "media" USING btree ("phash_b1");--> statement-breakpoint
CREATE INDEX "media_phash_b2" ON "media" USING btree ("phash_b2");--> statement-breakpoint
CREATE INDEX "media_phash_b3" ON "media" USING btree ("phash_b3");--> statement-breakpoint
CREATE INDEX "media_pending" ON "media" USING btree ("type","status","created_at");--> statement-breakpoint
CREATE INDEX "verification_user" ON "verification_requests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "verification_photo_id_expiry" ON "verification_requests" USING btree ("photo_id_delete_after") WHERE "verification_requests"."photo_id_key" is not null;