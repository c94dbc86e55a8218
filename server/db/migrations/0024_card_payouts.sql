ALTER TABLE "withdrawals" ADD COLUMN "payout_token" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "card_type" text;--> statement-breakpoint
-- No full card number stays in the database (ADR 050): a card withdrawal made before keeps its first six and last four digits only.
UPDATE "withdrawals" SET "destination" = substr("destination", 1, 6) || '******' || right("destination", 4) WHERE "method" = 'card' AND "destination" ~ '^[0-9]{13,19}$';
