-- Audit log streams (server/log-streams/): each stream follows its tenant's audit chain by
-- sequence from its cursor; the engine claims a due stream (locked_until is the lease), sends the
-- batch pending_from..pending_to and moves the cursor. log_stream_batches keeps each attempt.
CREATE TABLE "log_streams" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "secrets_ciphertext" TEXT,
    "event_types" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "cursor_sequence" BIGINT NOT NULL DEFAULT 0,
    "pending_from" BIGINT,
    "pending_to" BIGINT,
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "locked_until" TIMESTAMPTZ(3),
    "failing_since" TIMESTAMPTZ(3),
    "failing_notified" BOOLEAN NOT NULL DEFAULT false,
    "last_batch_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "log_streams_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "log_stream_batches" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "stream_id" UUID NOT NULL,
    "from_sequence" BIGINT NOT NULL,
    "to_sequence" BIGINT NOT NULL,
    "events" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "response_status" INTEGER,
    "response_body" TEXT,
    "error" TEXT,
    "test" BOOLEAN NOT NULL DEFAULT false,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "log_stream_batches_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "log_streams_tenant_id_created_at_id_idx" ON "log_streams"("tenant_id", "created_at", "id");
CREATE INDEX "log_streams_next_attempt_at_idx" ON "log_streams"("next_attempt_at");
CREATE INDEX "log_stream_batches_stream_id_started_at_id_idx" ON "log_stream_batches"("stream_id", "started_at", "id");

ALTER TABLE "log_streams" ADD CONSTRAINT "log_streams_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "log_stream_batches" ADD CONSTRAINT "log_stream_batches_stream_id_fkey" FOREIGN KEY ("stream_id") REFERENCES "log_streams"("id") ON DELETE CASCADE ON UPDATE CASCADE;
