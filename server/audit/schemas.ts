import { isIP } from "node:net";
import { z } from "zod";
import { text } from "../contract/fields.ts";
import { pageOf, PageQuery } from "../contract/page-query.ts";
import { APPEND_KIND, EVENT_SOURCE_TYPES, isAppendedNamespace } from "../events/types.ts";

/** A kind to filter by: exact (`user.login`) or a prefix (`user.*`). */
const KIND_PATTERN = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*(\.\*)?$/;
/** ISO 8601: a date, or a date and time (seconds and fraction optional), with or without an offset (UTC if none). */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

export const MAX_DETAILS_BYTES = 32 * 1024;
export const FUTURE_TOLERANCE_MS = 5_000;

/** Parses an ISO 8601 date or date-time, or returns null if it is not one (including 2025-02-30). */
export function parseIsoDate(value: string): Date | null {
  const m = ISO_DATE.exec(value);
  if (!m) return null;
  const [, y, mo, d, h = "00", mi = "00", s = "00", zone] = m;
  const body = zone ? value.slice(0, -zone.length) : value;
  const date = new Date(`${body.includes("T") ? body : `${body}T00:00`}${normalizeZone(zone)}`);
  if (Number.isNaN(date.getTime())) return null;
  const calendar = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  const valid =
    calendar.getUTCFullYear() === Number(y) &&
    calendar.getUTCMonth() === Number(mo) - 1 &&
    calendar.getUTCDate() === Number(d) &&
    Number(h) < 24 &&
    Number(mi) < 60 &&
    Number(s) < 60;
  return valid ? date : null;
}

function normalizeZone(zone: string | undefined): string {
  if (!zone || zone === "Z") return "Z";
  if (zone.length === 3) return `${zone}:00`;
  return zone.includes(":") ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
}

export const IsoDateParam = z
  .string()
  .max(40, "must be an ISO 8601 date or date-time")
  .refine((v) => parseIsoDate(v) !== null, "must be an ISO 8601 date or date-time (e.g. 2026-01-31 or 2026-01-31T12:00:00Z)");

/**
 * The filters of the list and the export (all optional), as query parameters. Each description is
 * on the inner schema: the OpenAPI generator unwraps `.optional()` and would drop one set on it.
 */
export const auditFilterFields = {
  event_type: z
    .string()
    .max(2000, "is too long")
    .refine((v) => {
      const items = v.split(",").map((s) => s.trim());
      return items.length <= 50 && items.every((item) => KIND_PATTERN.test(item));
    }, "must be event kinds separated by commas (at most 50), each exact (user.login) or a prefix (user.*)")
    .meta({ description: "Exact kind (`user.login`), comma list (`user.login,user.step_up`) or prefix (`user.*`)." })
    .optional(),
  start_date: IsoDateParam.meta({ description: "ISO 8601 date or date-time, inclusive (UTC when no offset is given)." }).optional(),
  end_date: IsoDateParam.meta({ description: "ISO 8601 date or date-time, exclusive (UTC when no offset is given)." }).optional(),
  actor_id: text()
    .min(1, "must not be empty")
    .max(200, "must be at most 200 characters")
    .meta({ description: "Only events by this actor id." })
    .optional(),
  actor_email: text()
    .min(1, "must not be empty")
    .max(320, "must be at most 320 characters")
    .meta({ description: "Only events whose actor email is this one, in any letter case (exact otherwise)." })
    .optional(),
  target_id: text()
    .min(1, "must not be empty")
    .max(200, "must be at most 200 characters")
    .meta({ description: "Only events about this target (`target.id`, exact)." })
    .optional(),
  target_type: text()
    .min(1, "must not be empty")
    .max(100, "must be at most 100 characters")
    .meta({ description: "Only events about a target of this type (`target.type`, exact: `user`, `webhook`, …)." })
    .optional(),
};

const TenantPath = { tenant_id: z.string().max(100) };

export function startNotAfterEnd(value: { start_date?: string; end_date?: string }, ctx: z.RefinementCtx) {
  if (!value.start_date || !value.end_date) return;
  const start = parseIsoDate(value.start_date);
  const end = parseIsoDate(value.end_date);
  if (start && end && start > end) ctx.addIssue({ code: "custom", path: ["start_date"], message: "must not be after end_date" });
}

export const ListAuditInput = PageQuery.extend({ ...TenantPath, ...auditFilterFields }).superRefine(startNotAfterEnd);
export type ListAuditInput = z.infer<typeof ListAuditInput>;

export const EXPORT_FORMATS = ["json", "csv"] as const;
export const ExportAuditQuery = z
  .object({
    ...auditFilterFields,
    format: z.enum(EXPORT_FORMATS, { error: "must be json or csv" }).optional(),
  })
  .superRefine(startNotAfterEnd);

/** Who wrote an event: set by the server, covered by the hash (chain version 2). */
export const AuditEventSource = z
  .object({
    type: z.enum(EVENT_SOURCE_TYPES).meta({
      description:
        "`platform`: the control plane's own event. `api`: appended by an application (`POST /tenants/{tenant_id}/audit`), which names its own actor, IP and time.",
    }),
    token_id: z
      .string()
      .nullable()
      .meta({ description: "For `api`: the API token that appended it (null when appended from a console session)." }),
    user_id: z.string().nullable().meta({ description: "For `api`: the user of that token or session. Null for `platform`." }),
  })
  .meta({ id: "AuditEventSource" });

export const AuditEvent = z
  .object({
    id: z.uuid(),
    tenant_id: z.uuid().nullable(),
    event_type: z.string(),
    actor: z.object({
      id: z.string().nullable(),
      email: z.string().nullable(),
      name: z.string().nullable().optional().meta({
        description:
          "What acted, in words, as the control plane knows it when the event is read (not stored, not covered by `hash`): a user's email, a setup link's intent and creator, a directory's name, an API token's name. Null when there is nothing to add (an appended event's own actor, the platform). On the list, the platform search and one event; not in exports or streams.",
      }),
    }),
    timestamp: z.iso.datetime(),
    metadata: z.object({ ip_address: z.string().nullable(), user_agent: z.string().nullable() }),
    target: z
      .object({
        type: z.string(),
        id: z.string(),
        name: z.string().nullable().meta({
          description: "What the target was called when the event was written (null when not recorded). Covered by `hash` when present.",
        }),
      })
      .nullable(),
    details: z.record(z.string(), z.unknown()),
    sequence: z.number().int().meta({ description: "Position in the tenant's hash chain: 1, 2, 3, … without gaps." }),
    prev_hash: z.string().meta({ description: "The previous event's `hash` (64 zeros for the first)." }),
    hash: z.string().meta({ description: "Hex SHA-256 of the canonical form of this event and `prev_hash` (see docs/audit-log.md)." }),
    chain_version: z.number().int().meta({
      description:
        "The canonical form `hash` was computed in: 1 for events written before sources were recorded, 2 since (covers `source`).",
    }),
    source: AuditEventSource.nullable().meta({
      description: "Who wrote the event, as the server recorded it (never the request body). Null on chain version 1 events.",
    }),
    source_token_name: z.string().nullable().optional().meta({
      description:
        "For `api` events appended with a token: that API token's name when the event is read (not covered by `hash`; null once the token is gone). On the list, the platform search and one event.",
    }),
  })
  .meta({ id: "AuditEvent" });
export type AuditEvent = z.infer<typeof AuditEvent>;

export const AuditPage = pageOf(AuditEvent).meta({ id: "AuditEventPage" });

export const AuditEventInput = z.object({ ...TenantPath, event_id: z.string().max(100) });

/** Kinds of target the console links to when the thing still exists. */
export const LINKABLE_TARGET_TYPES = ["tenant", "user", "sso_provider", "webhook"] as const;
export type LinkableTargetType = (typeof LINKABLE_TARGET_TYPES)[number];
const LinkableTarget = z.object({ type: z.enum(LINKABLE_TARGET_TYPES), id: z.string().max(200) });

/** The targets of a page of events: which of them still exist. */
export const ExistingTargetsInput = z.object({ ...TenantPath, targets: z.array(LinkableTarget).max(100) });
export const ExistingTargets = z.object({ results: z.array(LinkableTarget) });

export const TenantAuditInput = z.object(TenantPath);

export const AuditEventTypes = z
  .object({ results: z.array(z.object({ event_type: z.string(), count: z.number().int() })) })
  .meta({ id: "AuditEventTypes" });

export const VerifyAuditInput = z.object({
  ...TenantPath,
  from_sequence: z.coerce
    .number({ error: "must be an integer of at least 1" })
    .int("must be an integer of at least 1")
    .min(1, "must be an integer of at least 1")
    .max(Number.MAX_SAFE_INTEGER, "is too large")
    .optional()
    .meta({ description: "Check from this sequence on (default 1).", default: 1 }),
});

export const AuditVerification = z
  .object({
    valid: z.boolean(),
    checked: z.number().int().meta({ description: "Events whose hash and link were checked." }),
    first_invalid_sequence: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The first sequence whose event is altered, missing or wrongly linked." }),
    head_sequence: z.number().int().meta({ description: "The chain head's sequence when the check started." }),
    anchor_sequence: z.number().int().meta({
      description: "The last event removed by retention (0 when none was): the check starts after it.",
    }),
    anchor_hash: z.string().meta({
      description: "That event's hash (64 zeros when none was removed): the oldest retained event's prev_hash must equal it.",
    }),
  })
  .meta({ id: "AuditVerification" });
export type AuditVerification = z.infer<typeof AuditVerification>;

const appendFields = {
  event_type: z
    .string({ error: "is required and must be a string" })
    .max(100, "must be at most 100 characters")
    .regex(APPEND_KIND, "must be dot-separated lowercase words, at least two (e.g. invoice.paid)")
    .refine(
      isAppendedNamespace,
      "is in one of the control plane's own namespaces (user., tenant., webhook., …); use your own (e.g. app.user_login)",
    ),
  actor: z.strictObject(
    {
      id: text({ error: "is required and must be a string" }).min(1, "must not be empty").max(200, "must be at most 200 characters"),
      email: text({ error: "must be a string" }).max(320, "must be at most 320 characters").optional(),
    },
    { error: "is required: an object with id (and optionally email)" },
  ),
  timestamp: z
    .string({ error: "must be an ISO 8601 date-time" })
    .max(40, "must be an ISO 8601 date-time")
    .refine((v) => parseIsoDate(v) !== null, "must be an ISO 8601 date-time")
    .refine((v) => (parseIsoDate(v)?.getTime() ?? 0) <= Date.now() + FUTURE_TOLERANCE_MS, "must not be in the future")
    .optional(),
  metadata: z
    .strictObject({
      ip_address: z
        .string({ error: "must be a string" })
        .refine((v) => isIP(v) !== 0, "must be an IPv4 or IPv6 address")
        .optional(),
      user_agent: text({ error: "must be a string" }).max(512, "must be at most 512 characters").optional(),
    })
    .optional(),
  target: z
    .strictObject({
      type: text({ error: "is required and must be a string" }).min(1, "must not be empty").max(100, "must be at most 100 characters"),
      id: text({ error: "is required and must be a string" }).min(1, "must not be empty").max(200, "must be at most 200 characters"),
      name: text({ error: "must be a string" }).max(320, "must be at most 320 characters").optional(),
    })
    .optional(),
  details: z
    .record(z.string(), z.unknown(), { error: "must be a JSON object" })
    .refine((v) => Buffer.byteLength(JSON.stringify(v), "utf8") <= MAX_DETAILS_BYTES, "must be at most 32 KiB as JSON")
    .optional(),
};

export const AppendAuditInput = z.strictObject(appendFields).meta({ id: "AppendAuditEventRequest" });
export const AppendAuditInTenantInput = z.strictObject({ ...TenantPath, ...appendFields });
export type AppendAuditInput = z.infer<typeof AppendAuditInput>;

export const MAX_BATCH_EVENTS = 500;

export const AppendAuditBatchInput = z.strictObject({
  ...TenantPath,
  events: z
    .array(AppendAuditInput, { error: "is required: a list of events" })
    .min(1, "must have at least 1 event")
    .max(MAX_BATCH_EVENTS, `must have at most ${MAX_BATCH_EVENTS} events`)
    .meta({ description: `1 to ${MAX_BATCH_EVENTS} events, each as for a single append.` }),
});

export const AuditEventBatch = z.object({ results: z.array(AuditEvent) }).meta({ id: "AuditEventBatch" });
