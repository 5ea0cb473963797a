/**
 * The one function that records what happened. Call it inside the transaction of the change it
 * describes, so the event exists if and only if the change does. What else must happen in that
 * transaction (the webhook outbox) subscribes at start-up rather than being imported here.
 */
import type { SqlStatements } from "../db/sql.ts";
import type { Principal, RequestInfo } from "../auth/principal.ts";
import type { AuditEventRow, EventType } from "./types.ts";
import type { EventDetails } from "./catalog/index.ts";

/**
 * Who an audit event names as its actor, as its row stores them: anyone or no one (a failed
 * sign-in's email, a tenant application's own user, the system). A service's caller
 * (`Caller`, server/service-context.ts) becomes one through `actorOf`.
 */
export interface EventActor {
  id: string | null;
  email: string | null;
  ip: string | null;
  userAgent: string | null;
  /**
   * The console session the change was made in, when it was: not stored with the event, but
   * subscribers see it (disabling a provider ends its sessions, not the one doing it).
   */
  sessionId?: string | null;
  /** A setup link's holder: recorded in the event's details with the link's creator (actor id `setup_link:<id>`). */
  setupLink?: { id: string; createdBy: { id: string | null; email: string | null } };
}

/** The service itself, as the actor of what it does on its own (a job, a notice, the retention run). */
export const SYSTEM_ACTOR: EventActor = { id: null, email: null, ip: null, userAgent: null };

export function actorOf(principal: Principal | null, request: RequestInfo): EventActor {
  const link = principal?.setupLink;
  if (link) {
    return {
      id: `setup_link:${link.id}`,
      email: null,
      ip: request.ip,
      userAgent: request.userAgent,
      setupLink: { id: link.id, createdBy: link.createdBy },
    };
  }
  return {
    id: principal?.userId ?? null,
    email: principal?.email ?? null,
    ip: request.ip,
    userAgent: request.userAgent,
    ...(principal?.sessionId ? { sessionId: principal.sessionId } : {}),
  };
}

/**
 * What an event is about. `name` is what the thing is called when the event is written (a
 * tenant's name, a user's email, a webhook's URL…): stored with the event and hashed with it,
 * since the event is never rewritten when the thing is renamed or deleted.
 */
export interface EventTarget {
  type: string;
  id: string;
  name?: string | null;
}

/**
 * An event of the control plane itself: its kind is one of EVENT_TYPES, and its details are what
 * the catalog's schema of that kind says (server/events/catalog/), so a call site that writes
 * other details does not compile.
 */
export type EventInput<K extends EventType = EventType> = {
  [T in K]: {
    type: T;
    /** The tenant the event belongs to; null for a platform event outside any tenant. */
    tenantId: string | null;
    target?: EventTarget;
    details: EventDetails<T>;
  };
}[K];

/** An event a tenant's application appends (POST /tenants/{id}/audit): its own kind and time. */
export interface AppendedEventInput {
  type: string;
  tenantId: string;
  target?: EventTarget;
  details?: Record<string, unknown>;
  /** When it happened, if not now (appended events may carry their own past timestamp). */
  timestamp?: Date;
}

/** What the database assigned: the event's id, time and place in its tenant's hash chain. */
export interface RecordedEvent {
  id: string;
  timestamp: Date;
  sequence: number;
}

/**
 * The transaction to write in, as plain SQL: a SqlRunner transaction (hot paths), or a Prisma one
 * as `sqlIn(tx)` (server/db/client.ts).
 */
export type EventTx = SqlStatements;

/** An event just recorded: its row, and who and what it was emitted with. */
export interface EmittedEvent {
  row: AuditEventRow;
  actor: EventActor;
  event: EventInput | AppendedEventInput;
}

/**
 * Runs inside the transaction of the events it is given, right after they are inserted (the
 * webhook outbox is one): its writes exist if and only if the events do.
 */
export type EventSubscriber = (tx: EventTx, events: EmittedEvent[]) => Promise<unknown>;

// On globalThis: Next's bundles (instrumentation, route handlers) each load this module.
const registry = globalThis as unknown as { __controlPlaneEventSubscribers?: readonly EventSubscriber[] };

/** Sets the subscribers every emit calls, in order. The start-up wiring does (server/app/features.ts). */
export function setEventSubscribers(subscribers: readonly EventSubscriber[]): void {
  registry.__controlPlaneEventSubscribers = [...subscribers];
}

function subscribers(): readonly EventSubscriber[] {
  const list = registry.__controlPlaneEventSubscribers;
  // Emitting unwired would silently skip the outbox: refuse instead.
  if (!list) throw new Error("event subscribers are not wired: call wireEventSubscribers() (server/app/features.ts) at start-up");
  return list;
}

/**
 * The hash chain's canonical form every event is written in: version 2 hashes the event's source
 * too (migration 20261129020000_audit_event_source; version 1 rows, written before, have none).
 */
export const CHAIN_VERSION = 2;

// sequence, prev_hash and hash are filled in by the audit_events_chain trigger, which locks the
// tenant's chain head until this transaction ends (see migration 20261122000000_audit_chain).
// Rows go in in the order given (ORDER BY ord), so each tenant's sequence follows that order.
const INSERT_EVENTS = `INSERT INTO audit_events
  (tenant_id, event_type, actor_id, actor_email, ip_address, user_agent, target_type, target_id, target_name, details, timestamp,
   chain_version, source_type, source_token_id, source_user_id)
  SELECT v.tenant_id, v.event_type, v.actor_id, v.actor_email, v.ip_address, v.user_agent, v.target_type, v.target_id,
         v.target_name, v.details, coalesce(v.at, now()), ${CHAIN_VERSION}, v.source_type, v.source_token_id, v.source_user_id
  FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
              $9::jsonb[], $10::timestamptz[], $11::text[], $12::text[], $13::text[], $14::text[]) WITH ORDINALITY
       AS v(tenant_id, event_type, actor_id, actor_email, ip_address, user_agent, target_type, target_id, details, at, target_name,
            source_type, source_token_id, source_user_id, ord)
  ORDER BY v.ord
  RETURNING id, tenant_id, event_type, actor_id, actor_email, ip_address, user_agent, target_type, target_id, target_name,
            details, timestamp, sequence::int AS sequence, prev_hash, hash, chain_version,
            source_type, source_token_id, source_user_id`;

const PLATFORM_CHAIN = "00000000-0000-0000-0000-000000000000";

/**
 * Notified on commit with a tenant's id when events were recorded in it: the Events API's long
 * polls (server/events/waiters.ts) answer at once, on every instance.
 */
export const TENANT_EVENTS_CHANNEL = "tenant_events";

// Taken first, in chain order: the row's partition is chosen from its recorded_at default
// (clock_timestamp()) before the chain trigger runs, so the clock is read after the head lock and
// recorded_at never goes back along a chain (migration 20261124001000_audit_partitions). The same
// statement queues the commit's notice to the tenants' long polls (sent only if it commits).
const LOCK_HEADS = `WITH locked AS (
    SELECT chain_id FROM audit_chains WHERE chain_id = ANY($1::uuid[]) ORDER BY chain_id FOR UPDATE
  )
  SELECT (SELECT count(*) FROM locked)::int AS locked,
         (SELECT count(pg_notify('${TENANT_EVENTS_CHANNEL}', c::text)::text) FROM unnest($1::uuid[]) AS c
           WHERE c <> '${PLATFORM_CHAIN}'::uuid)::int AS notified`;

/**
 * Who appended an application's event, from the request's credentials (never from its body): the
 * API token (null for a console session) and its user. Recorded as the event's `api` source.
 */
export interface AppendedBy {
  tokenId: string | null;
  userId: string;
}

/** A tenant application's event to append, with the actor its application names and who appended it. */
export interface AppendedEventToEmit {
  actor: EventActor;
  event: AppendedEventInput;
  appendedBy: AppendedBy;
}

/** An event to record: the platform's own (no `appendedBy`), or an application's. */
interface ToEmit {
  actor: EventActor;
  event: EventInput | AppendedEventInput;
  appendedBy?: AppendedBy;
}

/** The event's details, naming the setup link (and who made it) when one was used. */
function detailsOf({ actor, event }: ToEmit): Record<string, unknown> {
  if (!actor.setupLink) return event.details ?? {};
  const { id, createdBy } = actor.setupLink;
  return { ...event.details, setup_link: { id, created_by_id: createdBy.id, created_by_email: createdBy.email } };
}

/**
 * Records events in one statement, in the order given, then runs the subscribers in the same
 * transaction; returns the rows in that order.
 */
async function record(tx: EventTx, items: ToEmit[]): Promise<AuditEventRow[]> {
  if (!items.length) return [];
  const notify = subscribers();
  const column = <T>(pick: (item: ToEmit) => T) => items.map(pick);
  const values = [
    column((i) => i.event.tenantId),
    column((i) => i.event.type),
    column((i) => i.actor.id),
    column((i) => i.actor.email),
    column((i) => i.actor.ip),
    column((i) => i.actor.userAgent),
    column((i) => i.event.target?.type ?? null),
    column((i) => i.event.target?.id ?? null),
    column((i) => JSON.stringify(detailsOf(i))),
    column((i) => ("timestamp" in i.event ? i.event.timestamp?.toISOString() : undefined) ?? null),
    // A name only with a target; an empty one is no name.
    column((i) => (i.event.target?.name ? i.event.target.name : null)),
    column((i) => (i.appendedBy ? "api" : "platform")),
    column((i) => i.appendedBy?.tokenId ?? null),
    column((i) => i.appendedBy?.userId ?? null),
  ];
  const chains = [...new Set(items.map((i) => i.event.tenantId ?? PLATFORM_CHAIN))];
  await tx.query(LOCK_HEADS, [chains]);
  const rows = await tx.query<AuditEventRow>(INSERT_EVENTS, values);
  // RETURNING order is not promised; within a tenant, sequence order is the order given.
  const byTenant = new Map<string | null, AuditEventRow[]>();
  for (const row of [...rows].sort((a, b) => a.sequence - b.sequence)) {
    const list = byTenant.get(row.tenant_id);
    if (list) list.push(row);
    else byTenant.set(row.tenant_id, [row]);
  }
  const taken = new Map<string | null, number>();
  const stored = items.map(({ event }) => {
    const at = taken.get(event.tenantId) ?? 0;
    taken.set(event.tenantId, at + 1);
    return byTenant.get(event.tenantId)![at]!;
  });
  const emitted = items.map(({ actor, event }, index) => ({ row: stored[index]!, actor, event }));
  for (const subscriber of notify) await subscriber(tx, emitted);
  return stored;
}

/**
 * Records events sent by tenants' applications in one statement (appends batched by the audit
 * appender), in the order given; returns their rows in that order. Same guarantees as emitEvent.
 */
export function recordAppendedEvents(tx: EventTx, items: AppendedEventToEmit[]): Promise<AuditEventRow[]> {
  return record(tx, items);
}

export async function emitEvent(tx: EventTx, actor: EventActor, event: EventInput): Promise<RecordedEvent> {
  const [stored] = await record(tx, [{ actor, event }]);
  return { id: stored!.id, timestamp: stored!.timestamp, sequence: stored!.sequence };
}

/**
 * Several events of one actor in one statement, in the order given (a SCIM PATCH adding a
 * thousand members to a group emits a thousand `directory_group.user_added`): emitEvent's
 * guarantees, one round trip.
 */
export async function emitEvents(tx: EventTx, actor: EventActor, events: EventInput[]): Promise<RecordedEvent[]> {
  const stored = await record(
    tx,
    events.map((event) => ({ actor, event })),
  );
  return stored.map((row) => ({ id: row.id, timestamp: row.timestamp, sequence: row.sequence }));
}

/**
 * Several events of the platform, each with its own actor, in one statement, in the order given:
 * what one change does to many people at once (a directory provisioning a thousand members of a
 * group) costs one insert.
 */
export async function emitActorEvents(tx: EventTx, items: { actor: EventActor; event: EventInput }[]): Promise<void> {
  await record(tx, items);
}

/** An event without its tenant (emitForUser finds the tenants), still typed by kind. */
export type UserEventInput = { [K in EventType]: Omit<EventInput<K>, "tenantId"> }[EventType];

/**
 * An event about a user rather than one tenant (sign-in, step-up, an unscoped API token): recorded
 * in each tenant the user belongs to, so every tenant's audit log shows it, or once as a platform
 * event when the user belongs to none.
 */
export async function emitForUser(tx: EventTx, actor: EventActor, userId: string | null, event: UserEventInput) {
  // In tenant-id order: every transaction takes chain-head locks in the same order (no deadlocks).
  const memberships = userId
    ? await tx.query<{ tenant_id: string }>(`SELECT tenant_id FROM memberships WHERE user_id = $1::uuid ORDER BY tenant_id`, [userId])
    : [];
  const tenantIds = memberships.length ? memberships.map((m) => m.tenant_id) : [null];
  for (const tenantId of tenantIds) await emitEvent(tx, actor, { ...event, tenantId } as EventInput);
}
