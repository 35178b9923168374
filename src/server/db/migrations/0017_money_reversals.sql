CREATE TABLE "sandbox_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"payment_ref" text NOT NULL,
	"amount" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_refunds_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_user_balance";--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD COLUMN "held_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD COLUMN "hold_reason" text;--> statement-breakpoint
CREATE INDEX "ledger_accounts_held" ON "ledger_accounts" USING btree ("held_since") WHERE "ledger_accounts"."held_since" is not null;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_hold" CHECK (("ledger_accounts"."held_since" is null) = ("ledger_accounts"."hold_reason" is null));--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_user_balance" CHECK ("ledger_accounts"."kind" <> 'user' or "ledger_accounts"."balance" >= 0 or "ledger_accounts"."held_since" is not null);--> statement-breakpoint
-- A user balance goes below zero only through a reversal (refund or chargeback, docs/decisions/0423): an
-- entry that lowers a user account under zero belongs to a reversal transaction, or it is refused.
CREATE FUNCTION ledger_negative_only_by_reversal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.amount < 0 AND NEW.balance_after < 0
     AND EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = NEW.ledger_account_id AND a.kind = 'user')
     AND NOT EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.id = NEW.transaction_id AND t.kind IN ('refund', 'chargeback')) THEN
    RAISE EXCEPTION 'a user balance goes below zero only through a reversal' USING ERRCODE = '23514';
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER ledger_entries_negative_only_by_reversal BEFORE INSERT ON "ledger_entries" FOR EACH ROW EXECUTE FUNCTION ledger_negative_only_by_reversal();
