/**
 * What each feature plugs into the running app besides its API (server/app/router.ts): the
 * subscribers that run inside every event's transaction, what it does when a tenant's ownership of
 * a domain changes (server/domains/ownership.ts), its periodic jobs, and the gauges a metrics
 * scrape reads (server/ops/scrape.ts). A new feature adds one entry here. Each composition root
 * (the server's start-up, the CLI, the test set-up) calls `wireEventSubscribers` before anything
 * emits; server/events and server/domains know only that someone reacts.
 *
 * Jobs are loaded when a trigger first needs them (`loadJobs`), not with this module: they reach
 * into every domain (SAML, OIDC, outbound calls…), and every process and test file wires the
 * subscribers, most without ever running a job.
 */
import { setEventSubscribers, type EventSubscriber } from "../events/emit.ts";
import type { Job } from "../jobs/job.ts";
import type { Collector } from "../metrics.ts";
import { setOwnershipChanges, type OwnershipChange } from "../domains/ownership.ts";
import { enqueueDeliveries } from "../webhooks/outbox.ts";
import { deliveriesGauge } from "../webhooks/metrics.ts";
import { lagGauge } from "../log-streams/metrics.ts";
import { endSessionsOnEvents } from "../account/sessions.ts";

interface Feature {
  name: string;
  subscribers?: EventSubscriber[];
  ownershipChanges?: OwnershipChange[];
  jobs?: () => Promise<Job[]>;
  collectors?: Collector[];
}

const FEATURES: Feature[] = [
  { name: "rest", jobs: async () => (await import("../contract/jobs.ts")).idempotencyJobs },
  { name: "auth", subscribers: [endSessionsOnEvents], jobs: async () => (await import("../auth/jobs.ts")).authJobs },
  { name: "sso", jobs: async () => (await import("../sso/jobs.ts")).ssoJobs },
  { name: "domains", jobs: async () => (await import("../domains/jobs.ts")).domainJobs },
  {
    name: "directories",
    // Loaded when a domain first changes hands, not with this module (as jobs are).
    ownershipChanges: [async (...change) => (await import("../directories/domain-change.ts")).reconcileDomainPeople(...change)],
    jobs: async () => (await import("../directories/jobs.ts")).directoryJobs,
  },
  { name: "audit", jobs: async () => (await import("../audit/jobs.ts")).auditJobs },
  {
    name: "webhooks",
    subscribers: [enqueueDeliveries],
    jobs: async () => (await import("../webhooks/jobs.ts")).webhookJobs,
    collectors: [deliveriesGauge],
  },
  { name: "log-streams", jobs: async () => (await import("../log-streams/jobs.ts")).logStreamJobs, collectors: [lagGauge] },
];

let jobs: Promise<readonly Job[]> | undefined;

/** Every periodic job, in the order a run takes them. */
export function loadJobs(): Promise<readonly Job[]> {
  jobs ??= Promise.all(FEATURES.map((feature) => feature.jobs?.() ?? [])).then((lists) => lists.flat());
  return jobs;
}

/** The gauges each feature has a scrape read, in the features' order. */
export function featureCollectors(): Collector[] {
  return FEATURES.flatMap((feature) => feature.collectors ?? []);
}

/**
 * Wires the event subscribers and the domain ownership reactions. `checks` run first, in every
 * event's transaction: the test set-up's catalog validation.
 */
export function wireEventSubscribers(checks: readonly EventSubscriber[] = []): void {
  setEventSubscribers([...checks, ...FEATURES.flatMap((feature) => feature.subscribers ?? [])]);
  setOwnershipChanges(FEATURES.flatMap((feature) => feature.ownershipChanges ?? []));
}
