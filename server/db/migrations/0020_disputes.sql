CREATE TABLE "disputes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"opened_by" uuid NOT NULL,
	"respondent_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"description" text NOT NULL,
	"files" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"admin_id" uuid,
	"outcome" text,
	"seller_percent" integer,
	"customer_amount" integer,
	"seller_amount" integer,
	"commission" integer,
	"comment" text,
	"resolved_by" uuid,
	"resolved_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "disputes_status" CHECK ("disputes"."status" in ('open', 'resolved', 'cancelled')),
	CONSTRAINT "disputes_seller_percent" CHECK ("disputes"."seller_percent" is null or "disputes"."seller_percent" between 0 and 100),
	CONSTRAINT "disputes_resolved" CHECK (("disputes"."status" = 'resolved') = ("disputes"."outcome" is not null and "disputes"."resolved_at" is not null)),
	CONSTRAINT "disputes_parties" CHECK ("disputes"."opened_by" <> "disputes"."respondent_id")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "lost_dispute_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_opened_by_users_id_fk" FOREIGN KEY ("opened_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_respondent_id_users_id_fk" FOREIGN KEY ("respondent_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "disputes_one_open_idx" ON "disputes" USING btree ("order_id") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "disputes_queue_idx" ON "disputes" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "disputes_opened_by_idx" ON "disputes" USING btree ("opened_by","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "disputes_respondent_idx" ON "disputes" USING btree ("respondent_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "disputes_order_idx" ON "disputes" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "chats_dispute_idx" ON "chats" USING btree ("dispute_id") WHERE dispute_id is not null;