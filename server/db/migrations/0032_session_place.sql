-- Where a session's sign-in came from, by the operator's GeoIP database (ADR 059): «Москва, Россия»; null without one.
ALTER TABLE "sessions" ADD COLUMN "place" text;