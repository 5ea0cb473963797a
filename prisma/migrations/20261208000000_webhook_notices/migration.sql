-- Operational notices (server/webhooks/notices.ts): when a notice about the webhook was last
-- mailed to the tenant's admins (at most one mail per webhook per 24 h, claimed by one UPDATE so
-- instances agree), and which failure streak (its failing_since) `webhook.failing` announced.
ALTER TABLE "webhooks" ADD COLUMN "notified_at" TIMESTAMPTZ(3);
ALTER TABLE "webhooks" ADD COLUMN "failing_notified_since" TIMESTAMPTZ(3);
