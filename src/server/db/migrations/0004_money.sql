CREATE TABLE "payment_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"payment_id" integer,
	"outcome" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_card_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"last4" char(4) NOT NULL,
	"brand" text NOT NULL,
	"exp_month" smallint NOT NULL,
	"exp_year" smallint NOT NULL,
	"behaviour" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_charges" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"token_id" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" char(3) NOT NULL,
	"status" text NOT NULL,
	"failure_code" text,
	"return_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_charges_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "sandbox_invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" char(3) NOT NULL,
	"address" text NOT NULL,
	"crypto_amount" text NOT NULL,
	"status" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_invoices_order_id_unique" UNIQUE("order_id")
);
--> statement-breakpoint
DROP INDEX "payments_provider_ref";--> statement-breakpoint
ALTER TABLE "auto_topup_runs" ADD COLUMN "order_id" integer;--> statement-breakpoint
ALTER TABLE "auto_topup_timers" ADD COLUMN "active_from" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "balance_after" bigint NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "idempotency_key" text NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "user_id" integer;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "params" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "path" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "source" text DEFAULT 'checkout' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "request_hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "order_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_events_provider_event" ON "payment_events" USING btree ("provider","event_id");--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auto_topup_runs_user" ON "auto_topup_runs" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_transaction_account" ON "ledger_entries" USING btree ("transaction_id","ledger_account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transactions_idempotency" ON "ledger_transactions" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "ledger_transactions_user" ON "ledger_transactions" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "payments_open" ON "payments" USING btree ("status","created_at") WHERE "payments"."status" in ('pending', 'requires_action');--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_ref" ON "payments" USING btree ("provider","provider_ref");--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_user_balance" CHECK ("ledger_accounts"."kind" <> 'user' or "ledger_accounts"."balance" >= 0);--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_owner" CHECK (("ledger_accounts"."kind" = 'user') = ("ledger_accounts"."user_id" is not null));--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_nonzero" CHECK ("ledger_entries"."amount" <> 0);--> statement-breakpoint
-- Hand-written (kept when this migration is regenerated): the ledger is append-only, and its system accounts exist from the start.
CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger rows are append-only: % on % refused', TG_OP, TG_TABLE_NAME;
END;
$$;--> statement-breakpoint
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON "ledger_entries" FOR EACH ROW EXECUTE FUNCTION ledger_append_only();--> statement-breakpoint
CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE OR DELETE ON "ledger_transactions" FOR EACH ROW EXECUTE FUNCTION ledger_append_only();--> statement-breakpoint
INSERT INTO "ledger_accounts" ("kind") VALUES ('cash'), ('revenue'), ('adjustments') ON CONFLICT DO NOTHING;
