CREATE TABLE "directory_version" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"v" bigint DEFAULT 1 NOT NULL,
	"db_token" text DEFAULT md5(random()::text || clock_timestamp()::text) NOT NULL,
	CONSTRAINT "directory_version_one_row" CHECK ("directory_version"."id")
);
--> statement-breakpoint
CREATE INDEX "listings_expires" ON "listings" USING btree ("expires_at") WHERE "listings"."expires_at" is not null;--> statement-breakpoint
INSERT INTO "directory_version" ("id", "v") VALUES (true, 1);--> statement-breakpoint
CREATE FUNCTION directory_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Once per transaction (docs/decisions/0700). The row triggers are deferred to the commit, so the
  -- version row is locked only from the commit's start to its end, after every other lock is taken.
  IF current_setting('directory.bumped', true) IS DISTINCT FROM 'on' THEN
    PERFORM set_config('directory.bumped', 'on', true);
    UPDATE directory_version SET v = v + 1;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER profiles_directory_write AFTER INSERT OR DELETE ON "profiles" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION directory_bump();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER profiles_directory_update AFTER UPDATE ON "profiles" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.views IS NOT DISTINCT FROM NEW.views OR (to_jsonb(OLD) - 'views') IS DISTINCT FROM (to_jsonb(NEW) - 'views')) EXECUTE FUNCTION directory_bump();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER accounts_directory_write AFTER INSERT OR DELETE ON "accounts" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION directory_bump();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER accounts_directory_update AFTER UPDATE ON "accounts" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.last_seen_at IS NOT DISTINCT FROM NEW.last_seen_at OR (to_jsonb(OLD) - 'last_seen_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_seen_at')) EXECUTE FUNCTION directory_bump();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER listings_directory AFTER INSERT OR UPDATE OR DELETE ON "listings" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION directory_bump();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER media_directory AFTER INSERT OR UPDATE OR DELETE ON "media" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION directory_bump();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER cities_directory AFTER INSERT OR UPDATE OR DELETE ON "cities" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION directory_bump();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER countries_directory AFTER INSERT OR UPDATE OR DELETE ON "countries" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION directory_bump();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER search_words_directory AFTER INSERT OR UPDATE OR DELETE ON "search_words" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION directory_bump();--> statement-breakpoint
CREATE TRIGGER profiles_directory_truncate AFTER TRUNCATE ON "profiles" FOR EACH STATEMENT EXECUTE FUNCTION directory_bump();--> statement-breakpoint
CREATE TRIGGER accounts_directory_truncate AFTER TRUNCATE ON "accounts" FOR EACH STATEMENT EXECUTE FUNCTION directory_bump();--> statement-breakpoint
CREATE TRIGGER listings_directory_truncate AFTER TRUNCATE ON "listings" FOR EACH STATEMENT EXECUTE FUNCTION directory_bump();--> statement-breakpoint
CREATE TRIGGER media_directory_truncate AFTER TRUNCATE ON "media" FOR EACH STATEMENT EXECUTE FUNCTION directory_bump();--> statement-breakpoint
CREATE TRIGGER cities_directory_truncate AFTER TRUNCATE ON "cities" FOR EACH STATEMENT EXECUTE FUNCTION directory_bump();--> statement-breakpoint
CREATE TRIGGER countries_directory_truncate AFTER TRUNCATE ON "countries" FOR EACH STATEMENT EXECUTE FUNCTION directory_bump();--> statement-breakpoint
CREATE TRIGGER search_words_directory_truncate AFTER TRUNCATE ON "search_words" FOR EACH STATEMENT EXECUTE FUNCTION directory_bump();
