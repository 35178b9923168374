CREATE TABLE "refund_intents" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"payment_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"provider" text NOT NULL,
	"amount" integer NOT NULL,
	"status" text NOT NULL,
	"actor_id" integer,
	"reason" text NOT NULL,
	"provider_refund_id" text,
	"claim_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempted_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "refund_intents_amount" CHECK ("refund_intents"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "reversal_flags" (
	"id" serial PRIMARY KEY NOT NULL,
	"transaction_id" bigint NOT NULL,
	"payment_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"excess" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" integer,
	CONSTRAINT "reversal_flags_excess" CHECK ("reversal_flags"."excess" > 0)
);
--> statement-breakpoint
CREATE TABLE "unmatched_notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"reference" text NOT NULL,
	"amount" integer,
	"deliveries" integer DEFAULT 1 NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"last_received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "refund_intents" ADD CONSTRAINT "refund_intents_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_intents" ADD CONSTRAINT "refund_intents_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_intents" ADD CONSTRAINT "refund_intents_actor_id_accounts_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reversal_flags" ADD CONSTRAINT "reversal_flags_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reversal_flags" ADD CONSTRAINT "reversal_flags_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reversal_flags" ADD CONSTRAINT "reversal_flags_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reversal_flags" ADD CONSTRAINT "reversal_flags_resolved_by_accounts_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refund_intents_key" ON "refund_intents" USING btree ("key");--> statement-breakpoint
CREATE INDEX "refund_intents_payment" ON "refund_intents" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "refund_intents_pending" ON "refund_intents" USING btree ("attempted_at") WHERE "refund_intents"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "reversal_flags_transaction" ON "reversal_flags" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "reversal_flags_open" ON "reversal_flags" USING btree ("user_id") WHERE "reversal_flags"."resolved_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "unmatched_notifications_event" ON "unmatched_notifications" USING btree ("provider","event_id","reference");--> statement-breakpoint
CREATE INDEX "unmatched_notifications_last" ON "unmatched_notifications" USING btree ("last_received_at");