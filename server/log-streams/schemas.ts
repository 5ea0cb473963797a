/**
 * Audit log streams: a tenant's audit log followed by sequence into its SIEM or data lake. Pure
 * zod, shared with the console's forms. Secrets (`secret_access_key`, `api_key`, `token`,
 * `secret`) are write-only: the representation says only that one is set (`*_set`).
 */
import { z } from "zod";
import { pageOf, PageQuery } from "../contract/page-query.ts";
import { JsonBoolean, text } from "../contract/fields.ts";
import { OutboundUrl } from "../outbound/schemas.ts";
import { EventSelection } from "../events/schemas.ts";

export const LOG_STREAM_TYPES = ["s3", "datadog", "splunk_hec", "https", "syslog"] as const;
export type LogStreamType = (typeof LOG_STREAM_TYPES)[number];
export const LOG_STREAM_STATES = ["active", "paused", "failing"] as const;
export type LogStreamState = (typeof LOG_STREAM_STATES)[number];

/** Events per batch at most; a batch also closes when its oldest event has waited LOG_STREAM_BATCH_WAIT_MS. */
export const MAX_BATCH_EVENTS = 1000;
export const MAX_NAME_LENGTH = 100;

const Name = text({ error: "must be a string" })
  .trim()
  .min(1, "is required")
  .max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`);
const Short = (max: number) =>
  text({ error: "must be a string" }).trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);
const Secret = text({ error: "must be a string" }).min(1, "must not be empty").max(1024, "must be at most 1024 characters");

export const DATADOG_SITES = [
  "datadoghq.com",
  "us3.datadoghq.com",
  "us5.datadoghq.com",
  "datadoghq.eu",
  "ap1.datadoghq.com",
  "ddog-gov.com",
] as const;

/** One schema per type: what a create (or a PATCH, merged over the stored config) must hold. */
export const S3Config = z.strictObject({
  bucket: Short(63).regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be an S3 bucket name (3-63 of a-z 0-9 . -)"),
  region: Short(40).regex(/^[a-z0-9-]+$/, "must be a region name such as us-east-1"),
  prefix: text({ error: "must be a string" })
    .max(200, "must be at most 200 characters")
    .regex(/^[A-Za-z0-9!_.*'()/-]*$/, "must be letters, digits and / ! - _ . * ' ( )")
    .transform((p) => p.replace(/^\/+|\/+$/g, ""))
    .optional(),
  endpoint: OutboundUrl.optional().meta({ description: "Any S3-compatible store (MinIO, R2…); default AWS's endpoint for `region`." }),
  path_style: JsonBoolean.optional().meta({
    description: "Bucket in the path (`endpoint/bucket/key`), as most S3-compatible stores need.",
  }),
  access_key_id: Short(128),
  secret_access_key: Secret,
});
export const DatadogConfig = z.strictObject({
  site: z.enum(DATADOG_SITES, { error: `must be one of ${DATADOG_SITES.join(", ")}` }),
  api_key: Secret,
  service: Short(100).optional(),
  tags: z.array(Short(200)).max(50, "at most 50 tags").optional(),
  endpoint: OutboundUrl.optional().meta({ description: "An intake URL in place of the site's (a proxy); rarely needed." }),
});
export const SplunkHecConfig = z.strictObject({
  url: OutboundUrl.meta({ description: "The HEC base URL, e.g. `https://splunk.acme.com:8088`." }),
  token: Secret,
  index: Short(100).optional(),
  source: Short(200).optional(),
  sourcetype: Short(200).optional(),
});
export const HttpsConfig = z.strictObject({
  url: OutboundUrl,
  secret: Secret.optional().meta({ description: "Signs each batch with Standard Webhooks headers, as our webhooks are." }),
});
export const SyslogConfig = z.strictObject({
  host: Short(253).meta({ description: "The receiver's host name or IP address (no scheme or port); private hosts as for URLs." }),
  port: z
    .number({ error: "must be a port number" })
    .int("must be a port number")
    .min(1, "must be a port number")
    .max(65535, "must be a port number"),
  tls: JsonBoolean.optional().meta({ description: "TLS (default true)." }),
  ca: text({ error: "must be a string" })
    .max(20_000, "must be at most 20000 characters")
    .refine((pem) => pem.includes("-----BEGIN CERTIFICATE-----"), "must be PEM certificates")
    .optional()
    .meta({ description: "PEM CA certificates the receiver's certificate must chain to (default: the system's)." }),
});

export const CONFIG_SCHEMAS = {
  s3: S3Config,
  datadog: DatadogConfig,
  splunk_hec: SplunkHecConfig,
  https: HttpsConfig,
  syslog: SyslogConfig,
} as const;
export type LogStreamConfigs = { [T in LogStreamType]: z.infer<(typeof CONFIG_SCHEMAS)[T]> };

/** The secret field of each type's config (stored encrypted, never returned). */
export const SECRET_FIELDS = {
  s3: ["secret_access_key"],
  datadog: ["api_key"],
  splunk_hec: ["token"],
  https: ["secret"],
  syslog: [],
} as const satisfies { [T in LogStreamType]: readonly (keyof LogStreamConfigs[T])[] };

/**
 * The fields that say where a type's batches go. A PATCH changing one drops the stored secret
 * unless it sends the secret again (a required one: 400 naming it), so a secret never follows a
 * stream to a new destination. The S3 access key id is not a secret (it is shown) and stays.
 */
export const DESTINATION_FIELDS = {
  s3: ["bucket", "region", "endpoint"],
  datadog: ["site", "endpoint"],
  splunk_hec: ["url"],
  https: ["url"],
  syslog: ["host", "port"],
} as const satisfies { [T in LogStreamType]: readonly (keyof LogStreamConfigs[T])[] };

export const StartFrom = text({ error: "must be a string" })
  .refine((v) => v === "now" || v === "oldest" || !Number.isNaN(Date.parse(v)), "must be now, oldest or an ISO 8601 date-time")
  .meta({
    description: "`now` (default): events from now on; `oldest`: the whole log first, then live; a date: events recorded since it.",
  });

export const LogStream = z
  .object({
    id: z.uuid(),
    tenant_id: z.uuid(),
    name: z.string(),
    type: z.enum(LOG_STREAM_TYPES),
    config: z.record(z.string(), z.unknown()).meta({
      description: "The type's config without its secret, in whose place `<field>_set: true` says one is stored.",
    }),
    event_types: z.array(z.string()).nullable().meta({ description: "Kinds streamed (as a webhook's `events`), or null: all." }),
    enabled: z.boolean(),
    state: z.enum(LOG_STREAM_STATES).meta({
      description: "`paused` (disabled), `failing` (every batch has failed for 24 h; it retries and resumes from its cursor), or `active`.",
    }),
    cursor_sequence: z
      .number()
      .int()
      .meta({ description: "The last sequence the receiver has (every event up to it was sent or skipped by `event_types`)." }),
    lag_events: z.number().int().meta({ description: "Events in the log after the cursor: still to send." }),
    last_batch_at: z.iso.datetime().nullable(),
    last_error: z.string().nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "LogStream" });
export type LogStream = z.infer<typeof LogStream>;

export const LogStreamBatch = z
  .object({
    id: z.uuid(),
    from_sequence: z.number().int(),
    to_sequence: z.number().int(),
    events: z.number().int().meta({ description: "Events sent in it (fewer than the range when `event_types` skips some)." }),
    status: z.enum(["succeeded", "failed"]),
    attempt: z.number().int(),
    duration_ms: z.number().int(),
    response_status: z.number().int().nullable(),
    response_body: z.string().nullable().meta({ description: "At most 1 KiB of the receiver's answer." }),
    error: z.string().nullable(),
    test: z.boolean(),
    started_at: z.iso.datetime(),
  })
  .meta({ id: "LogStreamBatch" });
export type LogStreamBatch = z.infer<typeof LogStreamBatch>;

const TenantPath = { tenant_id: z.string().max(100) };
const StreamPath = { ...TenantPath, stream_id: z.string().max(100) };

export const ListLogStreamsInput = PageQuery.extend(TenantPath);
export const LogStreamPage = pageOf(LogStream).meta({ id: "LogStreamPage" });
export const LogStreamPathInput = z.object(StreamPath);
export const ListBatchesInput = PageQuery.extend(StreamPath);
export const LogStreamBatchPage = pageOf(LogStreamBatch).meta({ id: "LogStreamBatchPage" });

export const CreateLogStreamInput = z
  .strictObject({
    ...TenantPath,
    name: Name,
    type: z.enum(LOG_STREAM_TYPES, { error: `must be one of ${LOG_STREAM_TYPES.join(", ")}` }),
    config: z.record(z.string(), z.unknown(), { error: "must be an object" }).meta({
      description: "The type's settings: see docs/log-streams.md (s3, datadog, splunk_hec, https, syslog).",
    }),
    event_types: EventSelection.optional(),
    start_from: StartFrom.optional(),
  })
  .meta({ id: "CreateLogStreamRequest" });
export type CreateLogStreamInput = z.infer<typeof CreateLogStreamInput>;

export const UpdateLogStreamInput = z
  .strictObject({
    ...StreamPath,
    name: Name.optional(),
    config: z
      .record(z.string(), z.unknown(), { error: "must be an object" })
      .optional()
      .meta({
        description:
          "Merged over the stored config: a secret left out is kept, except when the destination changes " +
          "(s3 `bucket`/`region`/`endpoint`, datadog `site`/`endpoint`, splunk_hec and https `url`): then it must be sent again " +
          "(400 naming it), or for https's optional `secret` it is dropped.",
      }),
    event_types: EventSelection.nullable().optional(),
    enabled: JsonBoolean.optional(),
  })
  .meta({ id: "UpdateLogStreamRequest" });
export type UpdateLogStreamInput = z.infer<typeof UpdateLogStreamInput>;

export const LogStreamTestResult = z
  .object({
    ok: z.boolean(),
    response_status: z.number().int().nullable(),
    response_body: z.string().nullable(),
    error: z.string().nullable(),
    duration_ms: z.number().int(),
  })
  .meta({ id: "LogStreamTestResult" });
export type LogStreamTestResult = z.infer<typeof LogStreamTestResult>;
