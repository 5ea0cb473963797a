-- A webhook's optional content filter: a CEL expression over the delivered payload
-- (server/webhooks/filter.ts). Null delivers every event it subscribes to.
ALTER TABLE "webhooks" ADD COLUMN "filter" TEXT;

-- Recover jobs: "re-send every delivery of this webhook that ended failed, exhausted or cancelled
-- in a window" (server/webhooks/recover.ts). The request picks the deliveries (marks them
-- recovered_by); any instance then claims the queued job with FOR UPDATE SKIP LOCKED and queues
-- their copies in one transaction.
CREATE TABLE "webhook_recover_jobs" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tenant_id" UUID NOT NULL,
    "webhook_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "since" TIMESTAMPTZ(3) NOT NULL,
    "until" TIMESTAMPTZ(3),
    "queued" INTEGER NOT NULL DEFAULT 0,
    "truncated" BOOLEAN NOT NULL DEFAULT false,
    "next_since" TIMESTAMPTZ(3),
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_recover_jobs_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "webhook_recover_jobs_webhook_id_created_at_idx" ON "webhook_recover_jobs"("webhook_id", "created_at");
CREATE INDEX "webhook_recover_jobs_status_idx" ON "webhook_recover_jobs"("status");

ALTER TABLE "webhook_recover_jobs" ADD CONSTRAINT "webhook_recover_jobs_webhook_id_fkey" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A delivery a recover job queued names the job (its progress counts them); the delivery it
-- re-sends names the same job in recovered_by, so a later recover does not send it again.
ALTER TABLE "webhook_deliveries" ADD COLUMN "recover_job_id" UUID;
ALTER TABLE "webhook_deliveries" ADD COLUMN "recovered_by" UUID;
CREATE INDEX "webhook_deliveries_recover_job_id_idx" ON "webhook_deliveries"("recover_job_id");
