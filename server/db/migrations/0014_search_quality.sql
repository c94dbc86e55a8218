CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "catalog_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "services" drop column "search";--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('russian', coalesce(title, '')), 'A') || setweight(to_tsvector('russian', coalesce(tags_text || ' ' || catalog_text, '')), 'B') || setweight(to_tsvector('russian', coalesce(description, '')), 'C')) STORED NOT NULL;
--> statement-breakpoint
-- Hand-written (ADR 028). Keep below when the part above is regenerated; drizzle-kit drops the search column's
-- GIN index with the column, so it is made again here.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "services_search_idx" ON "services" USING gin ("search");
--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops);
--> statement-breakpoint
-- The words of a text as search_words keeps them: lower case, ё as е, letters and digits, 3 to 40 characters,
-- not a bare number.
CREATE FUNCTION search_words_of(t text) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  select distinct w from regexp_split_to_table(translate(lower(coalesce(t, '')), 'ё', 'е'), '[^0-9a-zа-я]+') as w
   where char_length(w) between 3 and 40 and w !~ '^[0-9]+$'
$$;
--> statement-breakpoint
-- A service's category and sub-category titles, as its catalog_text holds them.
CREATE FUNCTION service_catalog_text(category uuid, sub uuid) RETURNS text LANGUAGE sql STABLE AS $$
  select coalesce((select title from categories where id = category), '') || ' ' || coalesce((select title from sub_categories where id = sub), '')
$$;
--> statement-breakpoint
CREATE FUNCTION services_search_fill() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.category_id IS DISTINCT FROM OLD.category_id OR NEW.sub_category_id IS DISTINCT FROM OLD.sub_category_id THEN
    NEW.catalog_text := service_catalog_text(NEW.category_id, NEW.sub_category_id);
  END IF;
  IF TG_OP = 'INSERT' OR NEW.title IS DISTINCT FROM OLD.title OR NEW.tags_text IS DISTINCT FROM OLD.tags_text OR NEW.catalog_text IS DISTINCT FROM OLD.catalog_text THEN
    INSERT INTO search_words (word) SELECT search_words_of(NEW.title || ' ' || NEW.tags_text || ' ' || NEW.catalog_text) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER services_search_fill BEFORE INSERT OR UPDATE OF title, tags_text, category_id, sub_category_id, catalog_text ON services
  FOR EACH ROW EXECUTE FUNCTION services_search_fill();
--> statement-breakpoint
-- A renamed category or sub-category rewrites the documents of its services.
CREATE FUNCTION catalog_title_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'categories' THEN
    UPDATE services SET catalog_text = service_catalog_text(category_id, sub_category_id) WHERE category_id = NEW.id;
  ELSE
    UPDATE services SET catalog_text = service_catalog_text(category_id, sub_category_id) WHERE sub_category_id = NEW.id;
  END IF;
  INSERT INTO search_words (word) SELECT search_words_of(NEW.title) ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER categories_title_changed AFTER UPDATE OF title ON categories
  FOR EACH ROW WHEN (NEW.title IS DISTINCT FROM OLD.title) EXECUTE FUNCTION catalog_title_changed();
--> statement-breakpoint
CREATE TRIGGER sub_categories_title_changed AFTER UPDATE OF title ON sub_categories
  FOR EACH ROW WHEN (NEW.title IS DISTINCT FROM OLD.title) EXECUTE FUNCTION catalog_title_changed();
--> statement-breakpoint
-- New categories' words (reference data is seeded after the migrations).
CREATE FUNCTION catalog_title_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (word) SELECT search_words_of(NEW.title) ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER categories_title_words AFTER INSERT ON categories FOR EACH ROW EXECUTE FUNCTION catalog_title_words();
--> statement-breakpoint
CREATE TRIGGER sub_categories_title_words AFTER INSERT ON sub_categories FOR EACH ROW EXECUTE FUNCTION catalog_title_words();
--> statement-breakpoint
-- Existing rows.
UPDATE services SET catalog_text = service_catalog_text(category_id, sub_category_id);
--> statement-breakpoint
INSERT INTO search_words (word)
  SELECT search_words_of(title) FROM categories UNION SELECT search_words_of(title) FROM sub_categories
  ON CONFLICT DO NOTHING;
