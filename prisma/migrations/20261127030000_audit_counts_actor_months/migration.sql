-- Audit count rollups of one actor at month grain only (they were kept per day and per month).
--
-- Per-actor day rows were nearly all of audit_counts (actors × kinds × days: 2.6 million rows, 302
-- MiB per million events, for a tenant of 5 million events and 200 actors). A count filtered by
-- actor now sums whole months from the rollups and counts the partial months at the edges of its
-- date range row by row, bounded by that actor's events there through the
-- (tenant_id, actor_id, timestamp, id) index (server/audit/counts.ts). Every actor ('') keeps
-- hour, day and month rows, as before.
--
-- The trigger and the retention purge (which subtracts a dropped month's events from the rollups)
-- stop writing per-actor day rows, and the existing ones are deleted: month rows are untouched, so
-- the counts stay exact across the upgrade. Runs in the migration's transaction: an append waiting
-- on the trigger's new body sees either the old rows and trigger or the new ones.

CREATE OR REPLACE FUNCTION audit_events_count() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO "audit_counts" AS c ("chain_id", "actor_id", "grain", "bucket", "event_type", "n")
  SELECT coalesce(i."tenant_id", '00000000-0000-0000-0000-000000000000'), a.actor_id, g.grain,
         date_trunc(g.grain, i."timestamp", 'UTC'), i."event_type", count(*)
    FROM inserted i
   CROSS JOIN LATERAL (VALUES (''), (nullif(i."actor_id", ''))) a(actor_id)
   CROSS JOIN LATERAL (VALUES ('hour'), ('day'), ('month')) g(grain)
   WHERE a.actor_id IS NOT NULL AND (a.actor_id = '' OR g.grain = 'month')
   GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT ("chain_id", "actor_id", "grain", "bucket", "event_type") DO UPDATE SET "n" = c."n" + EXCLUDED."n";
  RETURN NULL;
END
$fn$;

DELETE FROM "audit_counts" WHERE "actor_id" <> '' AND "grain" <> 'month';

-- As in migration 20261124001000_audit_partitions, but without per-actor day rows.
CREATE OR REPLACE FUNCTION audit_events_purge(retention_days INTEGER)
RETURNS TABLE (chain_id UUID, events_purged BIGINT, anchor_sequence BIGINT, anchor_hash TEXT, partition_name TEXT, purged_before TIMESTAMPTZ)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
DECLARE
  cutoff TIMESTAMPTZ := now() - make_interval(days => retention_days);
  names TEXT[];
  name TEXT;
  lo TIMESTAMPTZ;
  hi TIMESTAMPTZ;
BEGIN
  IF retention_days IS NULL OR retention_days < 365 THEN
    RAISE EXCEPTION 'audit retention must be at least 365 days, not %', retention_days;
  END IF;
  SELECT coalesce(array_agg(c.relname::TEXT ORDER BY c.relname), '{}') INTO names
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
   WHERE i.inhparent = '"audit_events"'::regclass AND c.relname ~ '^audit_events_[0-9]{4}_[0-9]{2}$'
     AND (to_date(substr(c.relname, 14), 'YYYY_MM')::timestamp AT TIME ZONE 'UTC') + INTERVAL '1 month' <= cutoff;
  CREATE TEMP TABLE IF NOT EXISTS audit_purge_chains (chain_id UUID, n BIGINT, last_sequence BIGINT, last_hash TEXT) ON COMMIT DROP;
  CREATE TEMP TABLE IF NOT EXISTS audit_purge_counts (chain_id UUID, actor_id TEXT, grain TEXT, bucket TIMESTAMPTZ, event_type TEXT, n BIGINT) ON COMMIT DROP;
  FOREACH name IN ARRAY names LOOP
    lo := to_date(substr(name, 14), 'YYYY_MM')::timestamp AT TIME ZONE 'UTC';
    hi := lo + INTERVAL '1 month';
    TRUNCATE audit_purge_chains, audit_purge_counts;
    INSERT INTO audit_purge_chains
      SELECT DISTINCT ON (1) coalesce(e."tenant_id", '00000000-0000-0000-0000-000000000000'),
             count(*) OVER (PARTITION BY coalesce(e."tenant_id", '00000000-0000-0000-0000-000000000000')),
             e."sequence", e."hash"
        FROM "audit_events" e WHERE e."recorded_at" >= lo AND e."recorded_at" < hi
       ORDER BY 1, e."sequence" DESC;
    INSERT INTO audit_purge_counts
      SELECT coalesce(e."tenant_id", '00000000-0000-0000-0000-000000000000'), a.actor_id, g.grain,
             date_trunc(g.grain, e."timestamp", 'UTC'), e."event_type", count(*)
        FROM "audit_events" e
       CROSS JOIN LATERAL (VALUES (''), (nullif(e."actor_id", ''))) a(actor_id)
       CROSS JOIN LATERAL (VALUES ('hour'), ('day'), ('month')) g(grain)
       WHERE e."recorded_at" >= lo AND e."recorded_at" < hi
         AND a.actor_id IS NOT NULL AND (a.actor_id = '' OR g.grain = 'month')
       GROUP BY 1, 2, 3, 4, 5;
    -- Heads in chain order, as appenders take them.
    PERFORM 1 FROM "audit_chains" h WHERE h."chain_id" IN (SELECT p.chain_id FROM audit_purge_chains p)
      ORDER BY h."chain_id" FOR UPDATE;
    UPDATE "audit_chains" h SET "anchor_sequence" = p.last_sequence, "anchor_hash" = p.last_hash
      FROM audit_purge_chains p WHERE h."chain_id" = p.chain_id AND p.last_sequence > h."anchor_sequence";
    -- Per kind: the month grain of every actor ('') holds each event exactly once.
    UPDATE "audit_chains" h SET "event_types" = (
             SELECT coalesce(jsonb_object_agg(t.key, t.value::BIGINT - coalesce(g.n, 0)), '{}')
               FROM jsonb_each_text(h."event_types") t
               LEFT JOIN (SELECT k.event_type, sum(k.n) AS n FROM audit_purge_counts k
                           WHERE k.chain_id = h."chain_id" AND k.actor_id = '' AND k.grain = 'month' GROUP BY 1) g
                 ON g.event_type = t.key
              WHERE t.value::BIGINT - coalesce(g.n, 0) > 0)
      FROM audit_purge_chains p WHERE h."chain_id" = p.chain_id;
    UPDATE "audit_counts" c SET "n" = c."n" - k.n
      FROM audit_purge_counts k
     WHERE c."chain_id" = k.chain_id AND c."actor_id" = k.actor_id AND c."grain" = k.grain
       AND c."bucket" = k.bucket AND c."event_type" = k.event_type;
    DELETE FROM "audit_counts" c WHERE c."chain_id" IN (SELECT p.chain_id FROM audit_purge_chains p) AND c."n" <= 0;
    RETURN QUERY SELECT p.chain_id, p.n, p.last_sequence, p.last_hash, name, hi FROM audit_purge_chains p;
    EXECUTE format('DROP TABLE %I', name);
  END LOOP;
END
$fn$;

REVOKE ALL ON FUNCTION audit_events_purge(INTEGER) FROM PUBLIC;
