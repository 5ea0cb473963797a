/**
 * What each feature plugs into the running app besides its API (server/app/router.ts): the
 * subscribers that run inside every event's transaction, and its periodic jobs. A new feature adds
 * one entry here. Each composition root (the server's start-up, the CLI, the test set-up) calls
 * `wireEventSubscribers` before anything emits; server/events knows only that subscribers exist.
 */
import { setEventSubscribers, type EventSubscriber } from "../events/emit.ts";
import type { Job } from "../jobs/job.ts";
import { restEdgeJobs } from "../http/jobs.ts";
import { authJobs } from "../auth/jobs.ts";
import { ssoJobs } from "../sso/jobs.ts";
import { auditJobs } from "../audit/jobs.ts";
import { webhookJobs } from "../webhooks/jobs.ts";
import { enqueueDeliveries } from "../webhooks/outbox.ts";

interface Feature {
  name: string;
  subscribers?: EventSubscriber[];
  jobs?: Job[];
}

const FEATURES: Feature[] = [
  { name: "rest", jobs: restEdgeJobs },
  { name: "auth", jobs: authJobs },
  { name: "sso", jobs: ssoJobs },
  { name: "audit", jobs: auditJobs },
  { name: "webhooks", subscribers: [enqueueDeliveries], jobs: webhookJobs },
];

/** Every periodic job, in the order a run takes them. */
export const JOBS: readonly Job[] = FEATURES.flatMap((feature) => feature.jobs ?? []);

export function wireEventSubscribers(): void {
  setEventSubscribers(FEATURES.flatMap((feature) => feature.subscribers ?? []));
}
