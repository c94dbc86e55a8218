DROP INDEX "orders_seller_idx";--> statement-breakpoint
DROP INDEX "orders_seller_status_idx";--> statement-breakpoint
CREATE INDEX "orders_seller_idx" ON "orders" USING btree ("seller_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"head_id","paid_at","bid_id","offer_id");--> statement-breakpoint
CREATE INDEX "orders_seller_status_idx" ON "orders" USING btree ("seller_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"head_id","paid_at","bid_id","offer_id");