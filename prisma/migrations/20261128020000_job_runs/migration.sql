-- The last start of each periodic job (server/jobs/runner.ts), shared by every instance's ticker
-- and the cron route: a job starts only when its interval has passed since the last start
-- anywhere, claimed with one upsert, so a fleet runs each job once per interval.
CREATE TABLE job_runs (
  name text PRIMARY KEY,
  started_at timestamptz(3) NOT NULL,
  finished_at timestamptz(3),
  -- What the last finished run did (its counts), or why it failed.
  summary jsonb,
  error text
);
