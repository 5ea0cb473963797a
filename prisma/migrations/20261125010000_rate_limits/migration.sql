-- API rate limits (server/http/rate-limit.ts): one fixed-window counter per partition
-- ("token:<id>" or "ip:<address>"), shared by every app instance.
-- UNLOGGED: every API request updates a row here, and a WAL flush per request would cost more
-- than the request itself. Counters survive app restarts and clean Postgres restarts; after a
-- Postgres crash the table comes back empty, which only forgives one window.
-- fillfactor 70 and no index besides the key keep the updates HOT (no index writes).
CREATE UNLOGGED TABLE "rate_limit_windows" (
    "key" TEXT NOT NULL,
    "hits" INTEGER NOT NULL,
    "window_end" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rate_limit_windows_pkey" PRIMARY KEY ("key")
) WITH (fillfactor = 70);
