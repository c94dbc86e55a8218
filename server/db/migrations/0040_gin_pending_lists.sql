-- The pending lists of the GIN indexes a counted view writes to, bounded at 256 kB (ADR 028, session 53 amendment).
-- Set in place rather than rebuilt as drizzle-kit writes it: the storage parameter applies from the next insert,
-- and rebuilding the search index took 11 s at 1 M services.
ALTER INDEX "services_search_idx" SET (gin_pending_list_limit=256);--> statement-breakpoint
ALTER INDEX "services_tags_idx" SET (gin_pending_list_limit=256);
