-- The audit list's and export's `actor_email` filter: the email an event's actor was recorded
-- with, exact but in any letter case, whoever it is (appended events name actors the control plane
-- has no account for). An index per tenant on the lower-cased email, in the list's keyset order
-- (timestamp, id), like the (tenant_id, actor_id, timestamp, id) index of `actor_id`, so a page is
-- one index range read in order. The email itself and `recorded_at` are INCLUDEd: Postgres runs an
-- index-only scan only when every column the query names is in the index (the email under lower(),
-- `recorded_at` in the partition bound of a start date, server/audit/recorded.ts), and the filter's
-- count (no rollups exist per email) then reads the index alone, not one heap page per event.
--
-- Created on the partitioned parent: Postgres builds it on every monthly partition (and on those
-- housekeeping creates later). It cannot be CONCURRENTLY (a partitioned table, in the migrations'
-- transaction): writes to audit_events wait while it builds (docs/benchmarks/audit.md).
-- Prisma cannot declare an expression index; the drift test lists it (test/integration/schema-drift.test.ts).
CREATE INDEX "audit_events_tenant_id_lower_actor_email_timestamp_id_idx"
    ON "audit_events" ("tenant_id", lower("actor_email"), "timestamp", "id") INCLUDE ("actor_email", "recorded_at");
