-- Audit events name their target as it was called when the event was written (a tenant's name,
-- a user's email, a provider's name, a webhook's URL, a token's name): events are immutable, so
-- the name is captured then and never looked up later. Null for events written before this and
-- for targets without a name.
ALTER TABLE "audit_events" ADD COLUMN "target_name" TEXT;

-- The canonical form gains the name as a last element, only when there is one: an event without
-- a name (every event written before this migration) hashes exactly as before, so existing
-- chains, signed digests and exports still verify; a name, when present, is covered by the hash.
CREATE OR REPLACE FUNCTION audit_event_hash(e "audit_events") RETURNS TEXT LANGUAGE sql STABLE AS $fn$
  SELECT encode(sha256(convert_to((jsonb_build_array(
    e."sequence", e."id", e."tenant_id", e."event_type", e."actor_id", e."actor_email",
    e."ip_address", e."user_agent", e."target_type", e."target_id", e."details",
    to_char(e."timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    e."prev_hash"
  ) || CASE WHEN e."target_name" IS NULL THEN '[]'::jsonb ELSE jsonb_build_array(e."target_name") END)::text, 'UTF8')), 'hex')
$fn$;
