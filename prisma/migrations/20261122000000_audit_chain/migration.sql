-- Audit log: a per-tenant hash chain, append-only rows, and the indexes the filtered list needs.
--
-- Every row gets `sequence` (1, 2, 3, … per tenant, no gaps), `prev_hash` (the previous row's
-- hash, or 64 zeros for the first) and `hash` = hex SHA-256 of the canonical form below. The
-- chain is computed by a BEFORE INSERT trigger that locks the tenant's head row in
-- `audit_chains`, so concurrent writers on any number of app instances queue for one tenant and
-- never fork the chain; a rolled-back insert releases its sequence with the lock, so there are no
-- gaps. Platform events (tenant_id NULL) form their own chain under the nil uuid.

-- CreateTable
CREATE TABLE "audit_chains" (
    "chain_id" UUID NOT NULL,
    "sequence" BIGINT NOT NULL DEFAULT 0,
    "hash" TEXT NOT NULL,
    "event_types" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "audit_chains_pkey" PRIMARY KEY ("chain_id")
);

-- AlterTable
ALTER TABLE "audit_events" ADD COLUMN "sequence" BIGINT,
ADD COLUMN "prev_hash" TEXT,
ADD COLUMN "hash" TEXT;

-- The canonical form: a JSON array of the event's fields in a fixed order, rendered by jsonb
-- (so `details` has one text form whatever key order it arrived in), UTF-8 encoded.
CREATE FUNCTION audit_event_hash(e "audit_events") RETURNS TEXT LANGUAGE sql STABLE AS $fn$
  SELECT encode(sha256(convert_to(jsonb_build_array(
    e."sequence", e."id", e."tenant_id", e."event_type", e."actor_id", e."actor_email",
    e."ip_address", e."user_agent", e."target_type", e."target_id", e."details",
    to_char(e."timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    e."prev_hash"
  )::text, 'UTF8')), 'hex')
$fn$;

-- Backfill the chain for rows written before this migration, oldest first.
DO $backfill$
DECLARE
  r "audit_events"%ROWTYPE;
  chain UUID;
  current_chain UUID := NULL;
  head_sequence BIGINT := 0;
  head_hash TEXT := repeat('0', 64);
BEGIN
  FOR r IN SELECT * FROM "audit_events"
           ORDER BY coalesce("tenant_id", '00000000-0000-0000-0000-000000000000'), "timestamp", "id" LOOP
    chain := coalesce(r."tenant_id", '00000000-0000-0000-0000-000000000000');
    IF current_chain IS DISTINCT FROM chain THEN
      IF current_chain IS NOT NULL THEN
        INSERT INTO "audit_chains" ("chain_id", "sequence", "hash") VALUES (current_chain, head_sequence, head_hash);
      END IF;
      current_chain := chain;
      head_sequence := 0;
      head_hash := repeat('0', 64);
    END IF;
    r."sequence" := head_sequence + 1;
    r."prev_hash" := head_hash;
    r."hash" := audit_event_hash(r);
    UPDATE "audit_events" SET "sequence" = r."sequence", "prev_hash" = r."prev_hash", "hash" = r."hash" WHERE "id" = r."id";
    head_sequence := r."sequence";
    head_hash := r."hash";
  END LOOP;
  IF current_chain IS NOT NULL THEN
    INSERT INTO "audit_chains" ("chain_id", "sequence", "hash") VALUES (current_chain, head_sequence, head_hash);
  END IF;
  UPDATE "audit_chains" c SET "event_types" = counts.types
    FROM (SELECT chain_id, jsonb_object_agg(event_type, n) AS types
            FROM (SELECT coalesce("tenant_id", '00000000-0000-0000-0000-000000000000') AS chain_id, "event_type", count(*) AS n
                    FROM "audit_events" GROUP BY 1, 2) per_type
           GROUP BY chain_id) counts
   WHERE c."chain_id" = counts.chain_id;
END
$backfill$;

ALTER TABLE "audit_events" ALTER COLUMN "sequence" SET NOT NULL,
ALTER COLUMN "prev_hash" SET NOT NULL,
ALTER COLUMN "hash" SET NOT NULL;

-- Appends. The first event a transaction writes to a chain locks that chain's head row (held
-- until the transaction ends); the head is then carried in a transaction-local setting, so a
-- transaction (or one INSERT … SELECT) writing many events does not rewrite the head row per
-- event. The statement-level trigger writes the head back once per statement, with the count
-- per event kind (the console's event-type suggestions and unfiltered counts).
CREATE FUNCTION audit_events_chain() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  chain UUID := coalesce(NEW."tenant_id", '00000000-0000-0000-0000-000000000000');
  setting TEXT := 'audit_chain.head_' || replace(chain::TEXT, '-', '');
  cached TEXT := current_setting(setting, true);
  head_sequence BIGINT;
  head_hash TEXT;
BEGIN
  IF cached IS NULL OR cached = '' THEN
    SELECT "sequence", "hash" INTO head_sequence, head_hash FROM "audit_chains" WHERE "chain_id" = chain FOR UPDATE;
    IF NOT FOUND THEN
      INSERT INTO "audit_chains" ("chain_id", "sequence", "hash") VALUES (chain, 0, repeat('0', 64))
        ON CONFLICT ("chain_id") DO NOTHING;
      SELECT "sequence", "hash" INTO head_sequence, head_hash FROM "audit_chains" WHERE "chain_id" = chain FOR UPDATE;
    END IF;
  ELSE
    head_sequence := split_part(cached, ':', 1)::BIGINT;
    head_hash := split_part(cached, ':', 2);
  END IF;
  NEW."sequence" := head_sequence + 1;
  NEW."prev_hash" := head_hash;
  NEW."hash" := audit_event_hash(NEW);
  PERFORM set_config(setting, NEW."sequence"::TEXT || ':' || NEW."hash", true);
  RETURN NEW;
END
$fn$;

CREATE FUNCTION audit_events_advance_heads() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE "audit_chains" c
     SET "sequence" = h.last_sequence,
         "hash" = h.last_hash,
         "event_types" = c."event_types" || (
           SELECT jsonb_object_agg(t."event_type", coalesce((c."event_types" ->> t."event_type")::BIGINT, 0) + t.n)
             FROM (SELECT i."event_type", count(*) AS n FROM inserted i
                    WHERE coalesce(i."tenant_id", '00000000-0000-0000-0000-000000000000') = c."chain_id"
                    GROUP BY i."event_type") t)
    FROM (SELECT DISTINCT ON (1) coalesce("tenant_id", '00000000-0000-0000-0000-000000000000') AS chain_id,
                 "sequence" AS last_sequence, "hash" AS last_hash
            FROM inserted ORDER BY 1, "sequence" DESC) h
   WHERE c."chain_id" = h.chain_id;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER "audit_events_chain" BEFORE INSERT ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION audit_events_chain();

CREATE TRIGGER "audit_events_advance_heads" AFTER INSERT ON "audit_events"
  REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_advance_heads();

-- Append-only: the database itself refuses to change or remove audit rows, whoever asks.
CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$fn$;

CREATE TRIGGER "audit_events_no_update_delete" BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();

CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();

-- Nobody but the owner holds write grants beyond INSERT (see README "Audit log: database roles").
REVOKE UPDATE, DELETE, TRUNCATE ON "audit_events" FROM PUBLIC;

-- CreateIndex
CREATE UNIQUE INDEX "audit_events_tenant_id_sequence_key" ON "audit_events"("tenant_id", "sequence");

-- CreateIndex
CREATE INDEX "audit_events_tenant_id_event_type_timestamp_id_idx" ON "audit_events"("tenant_id", "event_type", "timestamp", "id");

-- CreateIndex
CREATE INDEX "audit_events_tenant_id_actor_id_timestamp_id_idx" ON "audit_events"("tenant_id", "actor_id", "timestamp", "id");
