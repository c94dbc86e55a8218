ALTER TABLE "payments" ADD COLUMN "provider_deal_ref" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "received_amount" bigint;