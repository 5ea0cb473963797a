-- Audit log: monthly partitions and retention.
--
-- audit_events becomes range-partitioned by `recorded_at`: when the database recorded the event
-- (not the event's own `timestamp`, which an application may set in the past). The chain trigger
-- keeps `recorded_at` non-decreasing along each chain's sequence, so the events in the months
-- past retention are a prefix of every chain: dropping those partitions leaves each chain whole
-- from its oldest retained event, whose prev_hash is the chain's anchor (audit_chains.anchor_*).
--
-- The existing table is converted in place: its rows are copied into the partitioned table with
-- every column (id, sequence, prev_hash, hash) as it was; `recorded_at` of an old row is the
-- latest `timestamp` up to it in its chain (non-decreasing by construction), capped at now.
-- Partitions exist from the oldest event's month (at most ten years back; older rows land in the
-- DEFAULT partition) to three months ahead, as housekeeping keeps them
-- (audit_events_ensure_partitions), and the DEFAULT partition takes any row no month has, so an
-- append never fails for want of a partition.

DROP TRIGGER "audit_events_chain" ON "audit_events";
DROP TRIGGER "audit_events_advance_heads" ON "audit_events";
DROP TRIGGER "audit_events_count" ON "audit_events";
DROP TRIGGER "audit_events_no_update_delete" ON "audit_events";
DROP TRIGGER "audit_events_no_truncate" ON "audit_events";
-- Its argument is the old table's row type; recreated below for the new table, same body.
DROP FUNCTION audit_event_hash("audit_events");

CREATE TABLE "audit_events_partitioned" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tenant_id" UUID,
    "event_type" TEXT NOT NULL,
    "actor_id" TEXT,
    "actor_email" TEXT,
    "ip_address" TEXT,
    "user_agent" TEXT,
    "target_type" TEXT,
    "target_id" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',
    "timestamp" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sequence" BIGINT NOT NULL,
    "prev_hash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp()
) PARTITION BY RANGE ("recorded_at");

CREATE TABLE "audit_events_default" PARTITION OF "audit_events_partitioned" DEFAULT;

DO $partitions$
DECLARE
  oldest DATE := greatest(
    coalesce((SELECT min("timestamp") FROM "audit_events"), now()),
    now() - INTERVAL '10 years')::date;
  month DATE := date_trunc('month', oldest)::date;
BEGIN
  WHILE month <= (date_trunc('month', now()) + INTERVAL '3 months')::date LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF "audit_events_partitioned" FOR VALUES FROM (%L) TO (%L)',
      'audit_events_' || to_char(month, 'YYYY_MM'),
      month::timestamp AT TIME ZONE 'UTC', (month + INTERVAL '1 month')::timestamp AT TIME ZONE 'UTC');
    month := (month + INTERVAL '1 month')::date;
  END LOOP;
END
$partitions$;

INSERT INTO "audit_events_partitioned" ("id", "tenant_id", "event_type", "actor_id", "actor_email", "ip_address",
  "user_agent", "target_type", "target_id", "details", "timestamp", "sequence", "prev_hash", "hash", "recorded_at")
SELECT "id", "tenant_id", "event_type", "actor_id", "actor_email", "ip_address", "user_agent", "target_type",
       "target_id", "details", "timestamp", "sequence", "prev_hash", "hash",
       least(max("timestamp") OVER (PARTITION BY "tenant_id" ORDER BY "sequence"), now())
  FROM "audit_events";

DROP TABLE "audit_events";
ALTER TABLE "audit_events_partitioned" RENAME TO "audit_events";

-- A partitioned table's unique keys must hold the partition key. Sequences stay unique per chain
-- by the chain trigger (one writer per chain at a time), not by an index.
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id", "recorded_at");
CREATE INDEX "audit_events_tenant_id_sequence_idx" ON "audit_events"("tenant_id", "sequence");
CREATE INDEX "audit_events_tenant_id_timestamp_id_idx" ON "audit_events"("tenant_id", "timestamp", "id");
CREATE INDEX "audit_events_tenant_id_event_type_timestamp_id_idx" ON "audit_events"("tenant_id", "event_type", "timestamp", "id");
CREATE INDEX "audit_events_tenant_id_actor_id_timestamp_id_idx" ON "audit_events"("tenant_id", "actor_id", "timestamp", "id");
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The head now carries the last event's recorded_at; the anchor is the last purged event
-- (sequence 0 and no hash, i.e. 64 zeros, while nothing was purged).
ALTER TABLE "audit_chains" ADD COLUMN "recorded_at" TIMESTAMPTZ(3),
ADD COLUMN "anchor_sequence" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN "anchor_hash" TEXT;

UPDATE "audit_chains" c SET "recorded_at" = h."recorded_at"
  FROM (SELECT DISTINCT ON (1) coalesce("tenant_id", '00000000-0000-0000-0000-000000000000') AS chain_id, "recorded_at"
          FROM "audit_events" ORDER BY 1, "sequence" DESC) h
 WHERE c."chain_id" = h.chain_id;

CREATE FUNCTION audit_event_hash(e "audit_events") RETURNS TEXT LANGUAGE sql STABLE AS $fn$
  SELECT encode(sha256(convert_to(jsonb_build_array(
    e."sequence", e."id", e."tenant_id", e."event_type", e."actor_id", e."actor_email",
    e."ip_address", e."user_agent", e."target_type", e."target_id", e."details",
    to_char(e."timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    e."prev_hash"
  )::text, 'UTF8')), 'hex')
$fn$;

-- As before (migration 20261122000000_audit_chain), plus recorded_at: never before the chain's
-- last event (the row's partition was chosen from its default, clock_timestamp(), before this
-- trigger waited for the head lock; the app takes the lock before inserting, see emit.ts, so the
-- clamp only matters to other writers) and never in the future.
CREATE OR REPLACE FUNCTION audit_events_chain() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  chain UUID := coalesce(NEW."tenant_id", '00000000-0000-0000-0000-000000000000');
  setting TEXT := 'audit_chain.head_' || replace(chain::TEXT, '-', '');
  cached TEXT := current_setting(setting, true);
  head_sequence BIGINT;
  head_hash TEXT;
  head_recorded TIMESTAMPTZ;
BEGIN
  IF cached IS NULL OR cached = '' THEN
    SELECT "sequence", "hash", "recorded_at" INTO head_sequence, head_hash, head_recorded
      FROM "audit_chains" WHERE "chain_id" = chain FOR UPDATE;
    IF NOT FOUND THEN
      INSERT INTO "audit_chains" ("chain_id", "sequence", "hash") VALUES (chain, 0, repeat('0', 64))
        ON CONFLICT ("chain_id") DO NOTHING;
      SELECT "sequence", "hash", "recorded_at" INTO head_sequence, head_hash, head_recorded
        FROM "audit_chains" WHERE "chain_id" = chain FOR UPDATE;
    END IF;
  ELSE
    head_sequence := split_part(cached, ':', 1)::BIGINT;
    head_hash := split_part(cached, ':', 2);
    head_recorded := to_timestamp(split_part(cached, ':', 3)::DOUBLE PRECISION);
  END IF;
  IF NEW."recorded_at" > clock_timestamp() THEN
    NEW."recorded_at" := date_trunc('milliseconds', clock_timestamp());
  END IF;
  IF NEW."recorded_at" < head_recorded THEN
    NEW."recorded_at" := head_recorded;
  END IF;
  NEW."sequence" := head_sequence + 1;
  NEW."prev_hash" := head_hash;
  NEW."hash" := audit_event_hash(NEW);
  PERFORM set_config(setting, NEW."sequence"::TEXT || ':' || NEW."hash" || ':' || extract(epoch FROM NEW."recorded_at")::TEXT, true);
  RETURN NEW;
END
$fn$;

CREATE OR REPLACE FUNCTION audit_events_advance_heads() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE "audit_chains" c
     SET "sequence" = h.last_sequence,
         "hash" = h.last_hash,
         "recorded_at" = h.last_recorded_at,
         "event_types" = c."event_types" || (
           SELECT jsonb_object_agg(t."event_type", coalesce((c."event_types" ->> t."event_type")::BIGINT, 0) + t.n)
             FROM (SELECT i."event_type", count(*) AS n FROM inserted i
                    WHERE coalesce(i."tenant_id", '00000000-0000-0000-0000-000000000000') = c."chain_id"
                    GROUP BY i."event_type") t)
    FROM (SELECT DISTINCT ON (1) coalesce("tenant_id", '00000000-0000-0000-0000-000000000000') AS chain_id,
                 "sequence" AS last_sequence, "hash" AS last_hash, "recorded_at" AS last_recorded_at
            FROM inserted ORDER BY 1, "sequence" DESC) h
   WHERE c."chain_id" = h.chain_id;
  RETURN NULL;
END
$fn$;

-- Row triggers on a partitioned table apply to every partition, present and future; statement
-- triggers do not (TRUNCATE of one partition is guarded per partition, below).
CREATE TRIGGER "audit_events_chain" BEFORE INSERT ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION audit_events_chain();
CREATE TRIGGER "audit_events_advance_heads" AFTER INSERT ON "audit_events"
  REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_advance_heads();
CREATE TRIGGER "audit_events_count" AFTER INSERT ON "audit_events"
  REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_count();
CREATE TRIGGER "audit_events_no_update_delete" BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();

-- What only the owner may do to a partition: the app reads and appends through audit_events and
-- needs no rights on the partitions themselves.
CREATE FUNCTION audit_events_guard_partition(part REGCLASS) RETURNS VOID LANGUAGE plpgsql AS $fn$
BEGIN
  EXECUTE format('REVOKE ALL ON %s FROM PUBLIC', part);
  EXECUTE format('CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON %s
                  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only()', part);
END
$fn$;

SELECT audit_events_guard_partition(i.inhrelid::regclass)
  FROM pg_inherits i WHERE i.inhparent = '"audit_events"'::regclass;
REVOKE UPDATE, DELETE, TRUNCATE ON "audit_events" FROM PUBLIC;

-- Housekeeping's privileged path (SECURITY DEFINER: runs as the owner, so the app role needs only
-- EXECUTE, never the right to create or drop tables). Creates the monthly partitions from this
-- month to `months_ahead` months ahead; returns how many it created. A month whose rows already
-- sit in the DEFAULT partition cannot be created (they would have to move): it is skipped with a
-- warning and its rows stay in DEFAULT.
CREATE FUNCTION audit_events_ensure_partitions(months_ahead INTEGER) RETURNS INTEGER
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
DECLARE
  month DATE := date_trunc('month', now() AT TIME ZONE 'UTC')::date;
  last DATE := (date_trunc('month', now() AT TIME ZONE 'UTC') + make_interval(months => months_ahead))::date;
  name TEXT;
  created INTEGER := 0;
BEGIN
  WHILE month <= last LOOP
    name := 'audit_events_' || to_char(month, 'YYYY_MM');
    IF to_regclass(format('%I', name)) IS NULL THEN
      BEGIN
        EXECUTE format('CREATE TABLE %I PARTITION OF "audit_events" FOR VALUES FROM (%L) TO (%L)', name,
          month::timestamp AT TIME ZONE 'UTC', (month + INTERVAL '1 month')::timestamp AT TIME ZONE 'UTC');
        PERFORM audit_events_guard_partition(format('%I', name)::regclass);
        created := created + 1;
      EXCEPTION WHEN check_violation THEN
        RAISE WARNING 'audit_events: % has rows in the DEFAULT partition; not created', name;
      END;
    END IF;
    month := (month + INTERVAL '1 month')::date;
  END LOOP;
  RETURN created;
END
$fn$;

-- Drops every monthly partition that ends at least `retention_days` days ago (never fewer than
-- 365), oldest first. Before each drop: each chain's last event in it becomes the chain's anchor,
-- and its events leave the counts (audit_counts, audit_chains.event_types). One row per chain and
-- partition dropped. The app's rules stay as they are: no role may UPDATE, DELETE or TRUNCATE
-- audit rows; only this owner's function drops whole months.
CREATE FUNCTION audit_events_purge(retention_days INTEGER)
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
         AND a.actor_id IS NOT NULL AND (a.actor_id = '' OR g.grain <> 'hour')
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
REVOKE ALL ON FUNCTION audit_events_ensure_partitions(INTEGER) FROM PUBLIC;
REVOKE ALL ON FUNCTION audit_events_guard_partition(REGCLASS) FROM PUBLIC;
