DROP INDEX "orders_customer_idx";--> statement-breakpoint
DROP INDEX "orders_seller_idx";--> statement-breakpoint
DROP INDEX "orders_customer_status_idx";--> statement-breakpoint
DROP INDEX "orders_seller_status_idx";--> statement-breakpoint
DROP INDEX "orders_status_idx";--> statement-breakpoint
DROP INDEX "orders_created_idx";--> statement-breakpoint
CREATE INDEX "orders_customer_idx" ON "orders" USING btree ("customer_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"head_id");--> statement-breakpoint
CREATE INDEX "orders_seller_idx" ON "orders" USING btree ("seller_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"head_id");--> statement-breakpoint
CREATE INDEX "orders_customer_status_idx" ON "orders" USING btree ("customer_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"head_id");--> statement-breakpoint
CREATE INDEX "orders_seller_status_idx" ON "orders" USING btree ("seller_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"head_id");--> statement-breakpoint
CREATE INDEX "orders_status_idx" ON "orders" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"head_id");--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"head_id");