CREATE TABLE "service_views_daily" (
	"service_id" uuid NOT NULL,
	"day" date NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "service_views_daily_service_id_day_pk" PRIMARY KEY("service_id","day")
);
--> statement-breakpoint
ALTER TABLE "service_views_daily" ADD CONSTRAINT "service_views_daily_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;