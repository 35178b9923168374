CREATE TABLE "duplicate_matches" (
	"id" serial PRIMARY KEY NOT NULL,
	"media_id" integer NOT NULL,
	"other_media_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"other_user_id" integer NOT NULL,
	"distance" smallint NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "metric_snapshots" (
	"day" date NOT NULL,
	"metric" text NOT NULL,
	"value" bigint NOT NULL,
	CONSTRAINT "metric_snapshots_metric_day_pk" PRIMARY KEY("metric","day")
);
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_actor_id_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "before" jsonb;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "after" jsonb;--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "resolved_by" integer;--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "resolution_action" text;--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "resolution_note" text;--> statement-breakpoint
ALTER TABLE "duplicate_matches" ADD CONSTRAINT "duplicate_matches_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "duplicate_matches" ADD CONSTRAINT "duplicate_matches_other_media_id_media_id_fk" FOREIGN KEY ("other_media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "duplicate_matches_pair" ON "duplicate_matches" USING btree ("media_id","other_media_id");--> statement-breakpoint
CREATE INDEX "duplicate_matches_queue" ON "duplicate_matches" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "duplicate_matches_other" ON "duplicate_matches" USING btree ("other_media_id");--> statement-breakpoint
CREATE INDEX "accounts_email_trgm" ON "accounts" USING gin (lower("email") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "accounts_username_trgm" ON "accounts" USING gin (lower("username") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "audit_log_created" ON "audit_log" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_action" ON "audit_log" USING btree ("action","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_actor" ON "audit_log" USING btree ("actor_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "feedback_profile" ON "feedback" USING btree ("profile_id","status");--> statement-breakpoint
CREATE INDEX "profiles_phone_trgm" ON "profiles" USING gin (replace("phone", ' ', '') gin_trgm_ops);--> statement-breakpoint
CREATE FUNCTION audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit log is append-only: % on % refused', TG_OP, TG_TABLE_NAME;
END;
$$;--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION audit_append_only();--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON "audit_log" FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only();
