CREATE TABLE "appeals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigint GENERATED ALWAYS AS IDENTITY (sequence name "appeals_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"author_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"object_type" text,
	"object_id" uuid,
	"object_title" text,
	"object_path" text,
	"object_admin_path" text,
	"text" text NOT NULL,
	"files" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"admin_id" uuid,
	"taken_at" timestamp with time zone,
	"answer" text,
	"closed_at" timestamp with time zone,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appeals_status" CHECK ("appeals"."status" in ('new', 'in_progress', 'closed')),
	CONSTRAINT "appeals_subject" CHECK ("appeals"."subject" in ('service', 'project', 'user', 'order', 'dispute', 'moderation', 'question')),
	CONSTRAINT "appeals_closed_answered" CHECK (("appeals"."status" = 'closed') = ("appeals"."answer" is not null and "appeals"."closed_at" is not null)),
	CONSTRAINT "appeals_object" CHECK (("appeals"."object_type" is null) = ("appeals"."object_id" is null))
);
--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "appeals_number_idx" ON "appeals" USING btree ("number");--> statement-breakpoint
CREATE INDEX "appeals_author_idx" ON "appeals" USING btree ("author_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "appeals_status_idx" ON "appeals" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "appeals_created_idx" ON "appeals" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "appeals_ip_idx" ON "appeals" USING btree ("ip","created_at");