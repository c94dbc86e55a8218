ALTER TABLE "withdrawals" ADD COLUMN "order_id" uuid;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "order_number" integer;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "deal_ref" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "payout_attempt" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_order_idx" ON "withdrawals" USING btree ("order_id") WHERE order_id is not null;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_deal_has_order" CHECK ("withdrawals"."deal_ref" is null or "withdrawals"."order_id" is not null);