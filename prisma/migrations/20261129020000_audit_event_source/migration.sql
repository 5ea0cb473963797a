-- Audit events record who wrote them, inside the hash: `source_type` is `platform` (the control
-- plane's own event, server/events/emit.ts) or `api` (appended by a tenant's application,
-- POST /tenants/{id}/audit), and for `api` the API token that appended it (`source_token_id`;
-- null when appended from a console session) and that token's or session's user
-- (`source_user_id`). The request body cannot set any of them: the server does.
--
-- The hash's canonical form is versioned per row (`chain_version`):
--   1: as before (migration 20261127060000_audit_target_name): every row written before this
--      one, hashed exactly as it was, so existing chains, signed digests and exports still
--      verify. Version 1 rows have no source (the columns are NULL; the API shows `source: null`).
--   2: the version first, then the fields of version 1 in their order, `target_name` always
--      (null or not), then `source_type`, `source_token_id`, `source_user_id`.
-- A chain may hold both (version 1 rows, then version 2 rows); verify picks the form by the row's
-- version. Adding the columns writes no row (a constant default is kept in the catalog).
ALTER TABLE "audit_events" ADD COLUMN "chain_version" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN "source_type" TEXT,
ADD COLUMN "source_token_id" TEXT,
ADD COLUMN "source_user_id" TEXT;

-- The default stays 1: a row inserted without a version (by hand, as the code before this wrote
-- them) is hashed as before and claims no source. The app writes every event as version 2 with
-- its source (emit.ts). A version 2 row must say its source, and a version 1 row may not carry
-- one (it would not be hashed). NOT VALID: every existing row is version 1 without a source,
-- which this allows, so the table is not read to prove it; new rows are checked.
-- (IS NOT DISTINCT FROM: a NULL source is false here, not unknown, which a CHECK would let pass.)
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_source" CHECK (CASE "chain_version"
  WHEN 1 THEN "source_type" IS NULL AND "source_token_id" IS NULL AND "source_user_id" IS NULL
  WHEN 2 THEN ("source_type" IS NOT DISTINCT FROM 'platform' AND "source_token_id" IS NULL AND "source_user_id" IS NULL)
           OR ("source_type" IS NOT DISTINCT FROM 'api' AND "source_user_id" IS NOT NULL)
  ELSE FALSE
END) NOT VALID;

-- Version 1 is the form of migration 20261127060000_audit_target_name, unchanged. Any other row
-- (version 2; or a row altered to claim a source, or another version, behind the log's back) is
-- hashed in the version 2 form with its own version number, which its stored hash cannot match
-- unless that is how it was written.
CREATE OR REPLACE FUNCTION audit_event_hash(e "audit_events") RETURNS TEXT LANGUAGE sql STABLE AS $fn$
  SELECT encode(sha256(convert_to(CASE
    WHEN e."chain_version" = 1 AND e."source_type" IS NULL AND e."source_token_id" IS NULL AND e."source_user_id" IS NULL THEN
      (jsonb_build_array(
        e."sequence", e."id", e."tenant_id", e."event_type", e."actor_id", e."actor_email",
        e."ip_address", e."user_agent", e."target_type", e."target_id", e."details",
        to_char(e."timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        e."prev_hash"
      ) || CASE WHEN e."target_name" IS NULL THEN '[]'::jsonb ELSE jsonb_build_array(e."target_name") END)::text
    ELSE
      jsonb_build_array(
        e."chain_version", e."sequence", e."id", e."tenant_id", e."event_type", e."actor_id", e."actor_email",
        e."ip_address", e."user_agent", e."target_type", e."target_id", e."details",
        to_char(e."timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        e."prev_hash", e."target_name", e."source_type", e."source_token_id", e."source_user_id"
      )::text
  END, 'UTF8')), 'hex')
$fn$;
