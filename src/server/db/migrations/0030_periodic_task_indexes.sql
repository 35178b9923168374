-- Periodic tasks (docs/decisions/0757) read their own indexes: the re-hash of pictures asks every minute for
-- pictures of an older hash version (it walked every picture: 8-30 ms at 500,000 profiles, every minute,
-- beside the visitors), the purge asks hourly for deleted accounts due (every account read: 90 ms) and the
-- overview counts the listed profiles hourly (every profile read: 0.4 s). Each index is small or empty.
CREATE INDEX "accounts_purge_after" ON "accounts" USING btree ("purge_after") WHERE "accounts"."purge_after" is not null;--> statement-breakpoint
CREATE INDEX "media_older_hash" ON "media" USING btree ("phash_version","id") WHERE "media"."phash" is not null and "media"."type" <> 'video';--> statement-breakpoint
CREATE INDEX "profiles_listed" ON "profiles" USING btree ("user_id") WHERE "profiles"."listed";