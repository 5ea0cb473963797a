-- A webhook's pace and order (issue 25 item 5), enforced by the delivery core's claim
-- (server/delivery/statements.ts), so every instance shares them.
--
-- rate_limit_per_second: at most that many deliveries a second (null: no limit). paced_until is
-- the next free send slot (a GCRA "theoretical arrival time"): a claim gives the due deliveries
-- the slots from max(paced_until, now()) on, 1/rate apart, and moves paced_until past the last
-- one, under the webhook row's lock.
-- ordering: 'ordered' sends one delivery at a time, in event order, and a failing one holds the
-- ones behind it until it succeeds or ends (Svix FIFO).
ALTER TABLE "webhooks"
    ADD COLUMN "rate_limit_per_second" INTEGER,
    ADD COLUMN "ordering" TEXT NOT NULL DEFAULT 'unordered',
    ADD COLUMN "paced_until" TIMESTAMPTZ(3),
    ADD CONSTRAINT "webhooks_rate_limit_per_second_check" CHECK ("rate_limit_per_second" BETWEEN 1 AND 1000),
    ADD CONSTRAINT "webhooks_ordering_check" CHECK ("ordering" IN ('unordered', 'ordered'));

-- The few webhooks the claim treats one by one; the rest take the unlimited path, unchanged.
CREATE INDEX "webhooks_controlled_idx" ON "webhooks" ("id")
    WHERE "rate_limit_per_second" IS NOT NULL OR "ordering" = 'ordered';

-- Event order: the outbox inserts a tenant's deliveries in event order while holding the
-- tenant's audit chain lock (server/events/emit.ts), so this sequence follows the tenant's events.
-- Existing rows are numbered in their physical order.
ALTER TABLE "webhook_deliveries" ADD COLUMN "seq" BIGSERIAL NOT NULL;

-- A webhook's queue in event order: the ordered head, a paced webhook's next deliveries.
CREATE INDEX "webhook_deliveries_queue_idx" ON "webhook_deliveries" ("webhook_id", "seq")
    WHERE "status" IN ('pending', 'failed');
