-- The platform-wide audit search (GET /api/v1/audit, server/audit/search.ts) and the target
-- filters of a tenant's list and export (target_id, target_type).
--
-- The search has no tenant to lead with, so each of its selective filters gets an index of its
-- own in the list's keyset order (timestamp, id): a page is one ordered range read per partition
-- (Merge Append), never a scan of every partition. The search requires one of them (actor email,
-- actor id, target id, event type); `target_type` and the dates narrow it.
--
-- A tenant's `target_id` filter reads the same (target_id, timestamp, id) index (target ids are
-- the things' ids, rarely shared across tenants), and its `target_type` filter, which is not
-- selective across the platform but is within a tenant, its own (tenant_id, target_type, …).
--
-- What each filter's count names beyond its keys is INCLUDEd (`recorded_at`, the partition bound of
-- a start date; the email under lower(); a target's type and tenant), so a search's count reads
-- the index alone (an index-only scan once vacuum has marked the pages all-visible, which
-- autovacuum does for an append-only table) rather than one heap page per event.
--
-- Created on the partitioned parent (Postgres builds each on every monthly partition, and on
-- those housekeeping creates later); not CONCURRENTLY, as in 20261203000000_audit_actor_email:
-- writes to audit_events wait while they build. Prisma can declare neither INCLUDE nor an
-- expression: the drift test lists them (test/integration/schema-drift.test.ts).
CREATE INDEX "audit_events_actor_id_timestamp_id_idx"
    ON "audit_events" ("actor_id", "timestamp", "id") INCLUDE ("recorded_at");
CREATE INDEX "audit_events_event_type_timestamp_id_idx"
    ON "audit_events" ("event_type", "timestamp", "id") INCLUDE ("recorded_at");
CREATE INDEX "audit_events_target_id_timestamp_id_idx"
    ON "audit_events" ("target_id", "timestamp", "id") INCLUDE ("target_type", "tenant_id", "recorded_at");
CREATE INDEX "audit_events_tenant_id_target_type_timestamp_id_idx"
    ON "audit_events" ("tenant_id", "target_type", "timestamp", "id") INCLUDE ("recorded_at");
CREATE INDEX "audit_events_lower_actor_email_timestamp_id_idx"
    ON "audit_events" (lower("actor_email"), "timestamp", "id") INCLUDE ("actor_email", "recorded_at");
