ALTER TABLE "services" DROP CONSTRAINT "services_price_min";--> statement-breakpoint
ALTER TABLE "route_rules" ALTER COLUMN "redirect" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "route_rules" ADD COLUMN "kind" text DEFAULT 'redirect' NOT NULL;--> statement-breakpoint
ALTER TABLE "route_rules" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","created_at");--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_price_min" CHECK ("services"."price" >= 100);--> statement-breakpoint
ALTER TABLE "route_rules" ADD CONSTRAINT "route_rules_kind" CHECK ("route_rules"."kind" in ('redirect', 'block'));--> statement-breakpoint
ALTER TABLE "route_rules" ADD CONSTRAINT "route_rules_target" CHECK (("route_rules"."kind" = 'redirect') = ("route_rules"."redirect" is not null));