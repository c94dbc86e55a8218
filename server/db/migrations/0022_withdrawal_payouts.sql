ALTER TABLE "withdrawals" ADD COLUMN "payout_provider" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "payout_ref" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "payout_amount" bigint;