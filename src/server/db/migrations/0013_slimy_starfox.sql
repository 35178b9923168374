ALTER TABLE "profiles" ADD COLUMN "available_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "shown_birth_date" date;--> statement-breakpoint
CREATE INDEX "profiles_available_until" ON "profiles" USING btree ("available_until") WHERE "profiles"."available_until" is not null;--> statement-breakpoint
CREATE INDEX "profiles_shown_birth_date" ON "profiles" USING btree ("shown_birth_date") WHERE "profiles"."shown_birth_date" is not null;