-- An event's `timestamp` (the application's account of when it happened, any time in the past)
-- is never more than 5 minutes ahead of its `recorded_at` (when the database recorded it, the
-- partition key). Appends already refuse timestamps more than 5 s in the future of the app's
-- clock; this makes the bound the database's own, so that list queries may turn a lower bound on
-- `timestamp` into one on `recorded_at` and open only the partitions that can hold the answer
-- (server/audit/recorded.ts). Validating it reads every existing event once.
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_timestamp_lead"
  CHECK ("timestamp" <= "recorded_at" + interval '5 minutes');
