ALTER TABLE "bids" ADD COLUMN "stages" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "head_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "stage" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "stage_title" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "stage_deliverable" text;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_head_id_orders_id_fk" FOREIGN KEY ("head_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_head_stage_idx" ON "orders" USING btree ("head_id","stage") WHERE head_id is not null;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_stage" CHECK (("orders"."head_id" is null and "orders"."stage" is null) or ("orders"."head_id" is not null and "orders"."stage" is not null and "orders"."stage" between 1 and 20));--> statement-breakpoint
-- Orders in stages (ADR 065), checked at commit so that a head and its stages may be written in any order within a
-- transaction: a head's price and days are the sums of all its stages' (dropped ones too), every stage has the
-- head's parties, and a stage's head is no stage itself. An order without stages is not a head and passes.
CREATE FUNCTION orders_stages_agree() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  heads uuid[];
  head_row record;
  h uuid;
  stages_count bigint;
  stages_price bigint;
  stages_days bigint;
  strangers bigint;
BEGIN
  heads := ARRAY[coalesce(NEW.head_id, NEW.id)];
  IF TG_OP = 'UPDATE' AND OLD.head_id IS DISTINCT FROM NEW.head_id THEN
    heads := heads || coalesce(OLD.head_id, OLD.id);
  END IF;
  FOREACH h IN ARRAY heads LOOP
    SELECT id, head_id, price, days, customer_id, seller_id INTO head_row FROM orders WHERE id = h;
    IF NOT FOUND THEN
      CONTINUE;
    END IF;
    SELECT count(*), coalesce(sum(price), 0), coalesce(sum(days), 0),
           count(*) FILTER (WHERE customer_id <> head_row.customer_id OR seller_id <> head_row.seller_id)
      INTO stages_count, stages_price, stages_days, strangers
      FROM orders WHERE head_id = h;
    IF stages_count = 0 THEN
      CONTINUE;
    END IF;
    IF head_row.head_id IS NOT NULL THEN
      RAISE EXCEPTION 'orders: the stage % has stages of its own', h;
    END IF;
    IF stages_price <> head_row.price OR stages_days <> head_row.days THEN
      RAISE EXCEPTION 'orders: the head % (price %, days %) is not the sum of its stages (price %, days %)',
        h, head_row.price, head_row.days, stages_price, stages_days;
    END IF;
    IF strangers > 0 THEN
      RAISE EXCEPTION 'orders: % stage(s) of the head % have other parties than the head', strangers, h;
    END IF;
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER orders_stages_agree_insert AFTER INSERT ON orders DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION orders_stages_agree();
--> statement-breakpoint
-- A change of state or dates leaves the sums alone: only the columns they read wake the check.
CREATE CONSTRAINT TRIGGER orders_stages_agree_update AFTER UPDATE OF price, days, customer_id, seller_id, head_id ON orders DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION orders_stages_agree();
