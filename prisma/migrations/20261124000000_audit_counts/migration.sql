-- Audit log counts that do not grow with the tenant: rollups of events per chain, kind and time
-- bucket, kept by the append trigger in the appending transaction, so the list's exact `count` is
-- a sum of a few hundred rollup rows plus an exact count of the partial buckets at the edges of a
-- date range (see server/audit/counts.ts).
--
-- `actor_id` '' rows count every actor, at three grains (hour, day, month, by the event's
-- `timestamp` in UTC); rows of one actor (actor_id filter) keep only day and month, so a busy
-- tenant's per-actor rollups stay well below its event count. `n` is not indexed, so the
-- increments are HOT updates.
CREATE TABLE "audit_counts" (
    "chain_id" UUID NOT NULL,
    "actor_id" TEXT NOT NULL,
    "grain" TEXT NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "event_type" TEXT NOT NULL,
    "n" BIGINT NOT NULL,

    CONSTRAINT "audit_counts_pkey" PRIMARY KEY ("chain_id", "actor_id", "grain", "bucket", "event_type")
) WITH (fillfactor = 70);

INSERT INTO "audit_counts" ("chain_id", "actor_id", "grain", "bucket", "event_type", "n")
SELECT coalesce(e."tenant_id", '00000000-0000-0000-0000-000000000000'), a.actor_id, g.grain,
       date_trunc(g.grain, e."timestamp", 'UTC'), e."event_type", count(*)
  FROM "audit_events" e
 CROSS JOIN LATERAL (VALUES (''), (nullif(e."actor_id", ''))) a(actor_id)
 CROSS JOIN LATERAL (VALUES ('hour'), ('day'), ('month')) g(grain)
 WHERE a.actor_id IS NOT NULL AND (a.actor_id = '' OR g.grain <> 'hour')
 GROUP BY 1, 2, 3, 4, 5;

-- Statement-level, like the head update: one upsert per statement whatever its row count. Writers
-- of one chain are serialized by its head lock (audit_events_chain), so these rows never contend
-- beyond it.
CREATE FUNCTION audit_events_count() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO "audit_counts" AS c ("chain_id", "actor_id", "grain", "bucket", "event_type", "n")
  SELECT coalesce(i."tenant_id", '00000000-0000-0000-0000-000000000000'), a.actor_id, g.grain,
         date_trunc(g.grain, i."timestamp", 'UTC'), i."event_type", count(*)
    FROM inserted i
   CROSS JOIN LATERAL (VALUES (''), (nullif(i."actor_id", ''))) a(actor_id)
   CROSS JOIN LATERAL (VALUES ('hour'), ('day'), ('month')) g(grain)
   WHERE a.actor_id IS NOT NULL AND (a.actor_id = '' OR g.grain <> 'hour')
   GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT ("chain_id", "actor_id", "grain", "bucket", "event_type") DO UPDATE SET "n" = c."n" + EXCLUDED."n";
  RETURN NULL;
END
$fn$;

CREATE TRIGGER "audit_events_count" AFTER INSERT ON "audit_events"
  REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_count();
