-- Audit count rollups for every kind at once: beside its row per kind, each (chain, actor,
-- grain, bucket) gets a row of event_type '*' holding the sum over its kinds ('*' is never a
-- kind: kinds are dotted lowercase names). A count without a kind filter sums those instead of
-- one row per kind: a 210-day range on a tenant of 14 kinds read ~1,400 rollup rows, now ~90
-- (server/audit/counts.ts). The trigger writes both in the same upsert; the retention purge
-- subtracts from both; the existing rollups are summed into '*' rows here.
--
-- Appends wait while this runs (the locks below), so none is counted by the old trigger after
-- the sums were taken: every count stays exact across the upgrade.

LOCK TABLE "audit_events" IN SHARE ROW EXCLUSIVE MODE;
LOCK TABLE "audit_counts" IN SHARE ROW EXCLUSIVE MODE;

CREATE OR REPLACE FUNCTION audit_events_count() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO "audit_counts" AS c ("chain_id", "actor_id", "grain", "bucket", "event_type", "n")
  SELECT coalesce(i."tenant_id", '00000000-0000-0000-0000-000000000000'), a.actor_id, g.grain,
         date_trunc(g.grain, i."timestamp", 'UTC'), k.event_type, count(*)
    FROM inserted i
   CROSS JOIN LATERAL (VALUES (''), (nullif(i."actor_id", ''))) a(actor_id)
   CROSS JOIN LATERAL (VALUES ('hour'), ('day'), ('month')) g(grain)
   CROSS JOIN LATERAL (VALUES (i."event_type"), ('*')) k(event_type)
   WHERE a.actor_id IS NOT NULL AND (a.actor_id = '' OR g.grain = 'month')
   GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT ("chain_id", "actor_id", "grain", "bucket", "event_type") DO UPDATE SET "n" = c."n" + EXCLUDED."n";
  RETURN NULL;
END
$fn$;

INSERT INTO "audit_counts" ("chain_id", "actor_id", "grain", "bucket", "event_type", "n")
SELECT "chain_id", "actor_id", "grain", "bucket", '*', sum("n")
  FROM "audit_counts" WHERE "event_type" <> '*'
 GROUP BY 1, 2, 3, 4
ON CONFLICT ("chain_id", "actor_id", "grain", "bucket", "event_type") DO NOTHING;

-- As in migration 20261127030000_audit_counts_actor_months, with the '*' rows.
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
             date_trunc(g.grain, e."timestamp", 'UTC'), k.event_type, count(*)
        FROM "audit_events" e
       CROSS JOIN LATERAL (VALUES (''), (nullif(e."actor_id", ''))) a(actor_id)
       CROSS JOIN LATERAL (VALUES ('hour'), ('day'), ('month')) g(grain)
       CROSS JOIN LATERAL (VALUES (e."event_type"), ('*')) k(event_type)
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
                           WHERE k.chain_id = h."chain_id" AND k.actor_id = '' AND k.grain = 'month'
                             AND k.event_type <> '*' GROUP BY 1) g
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
