ALTER TABLE "payments" ADD COLUMN "deal_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "deal_reminders" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "deal_ended_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "payments_deal_end_idx" ON "payments" USING btree ("deal_expires_at") WHERE deal_expires_at is not null and deal_ended_at is null;