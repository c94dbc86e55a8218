CREATE TABLE "privacy_consents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"given_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "privacy_deletion_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"cancelled_at" timestamp with time zone,
	"done_at" timestamp with time zone,
	CONSTRAINT "privacy_deletion_requests_status" CHECK ("privacy_deletion_requests"."status" in ('pending', 'cancelled', 'done'))
);
--> statement-breakpoint
CREATE TABLE "privacy_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"version" integer NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "privacy_documents_kind" CHECK ("privacy_documents"."kind" in ('policy', 'consent'))
);
--> statement-breakpoint
ALTER TABLE "privacy_consents" ADD CONSTRAINT "privacy_consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_consents" ADD CONSTRAINT "privacy_consents_document_id_privacy_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."privacy_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_deletion_requests" ADD CONSTRAINT "privacy_deletion_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_documents" ADD CONSTRAINT "privacy_documents_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "privacy_consents_user_idx" ON "privacy_consents" USING btree ("user_id","given_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "privacy_consents_given_idx" ON "privacy_consents" USING btree ("given_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "privacy_deletion_requests_pending_idx" ON "privacy_deletion_requests" USING btree ("user_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "privacy_deletion_requests_due_idx" ON "privacy_deletion_requests" USING btree ("due_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "privacy_deletion_requests_requested_idx" ON "privacy_deletion_requests" USING btree ("requested_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "privacy_documents_kind_version_idx" ON "privacy_documents" USING btree ("kind","version");