CREATE TABLE "payment_differences" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider" text NOT NULL,
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"provider_ref" text NOT NULL,
	"payment_id" uuid,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"found_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" uuid,
	"resolution" text
);
--> statement-breakpoint
ALTER TABLE "payment_differences" ADD CONSTRAINT "payment_differences_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_differences" ADD CONSTRAINT "payment_differences_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_differences_once_idx" ON "payment_differences" USING btree ("provider","kind","provider_ref");--> statement-breakpoint
CREATE INDEX "payment_differences_open_idx" ON "payment_differences" USING btree ("found_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE resolved_at is null;--> statement-breakpoint
CREATE INDEX "payment_differences_day_idx" ON "payment_differences" USING btree ("provider","day");