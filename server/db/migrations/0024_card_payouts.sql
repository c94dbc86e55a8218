CREATE TABLE "self_employed" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"itn" text,
	"phone" text,
	"provider_ref" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"confirmation_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "payout_token" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "card_type" text;--> statement-breakpoint
ALTER TABLE "self_employed" ADD CONSTRAINT "self_employed_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- No full card number stays in the database (ADR 050): a card withdrawal made before keeps its first six and last four digits only.
UPDATE "withdrawals" SET "destination" = substr("destination", 1, 6) || '******' || right("destination", 4) WHERE "method" = 'card' AND "destination" ~ '^[0-9]{13,19}$';
