ALTER TABLE "sandbox_charges" ADD COLUMN "hosted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_charges" ADD COLUMN "notification_held" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_charges" ADD COLUMN "notified_at" timestamp with time zone;