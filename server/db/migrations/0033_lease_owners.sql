CREATE TABLE "deployment" (
	"one" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"id" text DEFAULT gen_random_uuid()::text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "owner_instance" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "owner_boot" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "leased_by" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "leased_boot" text;