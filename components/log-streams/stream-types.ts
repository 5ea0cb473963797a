/**
 * The receiver types a stream can have, as the console offers them: a name and a line about each,
 * the fields of each type's config (from the server's schemas, server/log-streams/schemas.ts) and
 * a one-line summary of where a stream sends its batches.
 */
import { DATADOG_SITES, LOG_STREAM_TYPES, SECRET_FIELDS } from "@/server/log-streams/schemas";
import type { LogStream, LogStreamType } from "./types";

export { LOG_STREAM_TYPES };

export const TYPE_INFO: Record<LogStreamType, { label: string; about: string }> = {
  s3: { label: "Amazon S3", about: "Gzip'd NDJSON objects in a bucket: AWS or any S3-compatible store (MinIO, R2…)." },
  datadog: { label: "Datadog", about: "Datadog's log intake, in batches within its limits." },
  splunk_hec: { label: "Splunk HEC", about: "Splunk's HTTP Event Collector, with its acknowledgements when enabled." },
  https: { label: "HTTPS endpoint", about: "JSON batches POSTed to your URL, signed like our webhooks." },
  syslog: { label: "Syslog", about: "RFC 5424 over TCP, TLS by default: QRadar, ArcSight, rsyslog." },
};

export type FieldKind = "text" | "url" | "secret" | "port" | "select" | "checkbox" | "certificates" | "list";

export interface ConfigField {
  /** The config key the server knows it by. */
  name: string;
  label: string;
  kind: FieldKind;
  /** Optional fields say so in their label and may be left empty. */
  optional?: boolean;
  hint?: string;
  placeholder?: string;
  options?: readonly string[];
  /** Half the form's width from the small breakpoint up, beside its pair (bucket and region). */
  half?: boolean;
}

export const CONFIG_FIELDS: Record<LogStreamType, ConfigField[]> = {
  s3: [
    { name: "bucket", label: "Bucket", kind: "text", placeholder: "acme-audit-logs", half: true },
    { name: "region", label: "Region", kind: "text", placeholder: "us-east-1", half: true },
    {
      name: "prefix",
      label: "Key prefix",
      kind: "text",
      optional: true,
      placeholder: "control-plane",
      hint: "Objects are keyed {prefix}/{tenant}/{yyyy}/{mm}/{dd}/{from}-{to}.ndjson.gz.",
    },
    {
      name: "endpoint",
      label: "Endpoint",
      kind: "url",
      optional: true,
      placeholder: "https://minio.acme.com",
      hint: "For an S3-compatible store; empty: AWS's endpoint for the region.",
    },
    { name: "path_style", label: "Path-style addressing (endpoint/bucket/key), as most S3-compatible stores need", kind: "checkbox" },
    { name: "access_key_id", label: "Access key ID", kind: "text" },
    { name: "secret_access_key", label: "Secret access key", kind: "secret" },
  ],
  datadog: [
    { name: "site", label: "Site", kind: "select", options: DATADOG_SITES, hint: "Where your Datadog organization lives." },
    { name: "api_key", label: "API key", kind: "secret" },
    { name: "service", label: "Service", kind: "text", optional: true, placeholder: "control-plane" },
    { name: "tags", label: "Tags", kind: "list", optional: true, placeholder: "env:prod, team:security", hint: "Separated by commas." },
  ],
  splunk_hec: [
    { name: "url", label: "HEC URL", kind: "url", placeholder: "https://splunk.acme.com:8088", hint: "The collector's base URL." },
    { name: "token", label: "HEC token", kind: "secret" },
    { name: "index", label: "Index", kind: "text", optional: true },
    { name: "source", label: "Source", kind: "text", optional: true, half: true },
    { name: "sourcetype", label: "Source type", kind: "text", optional: true, half: true },
  ],
  https: [
    { name: "url", label: "Endpoint URL", kind: "url", placeholder: "https://siem.acme.com/ingest" },
    {
      name: "secret",
      label: "Signing secret",
      kind: "secret",
      optional: true,
      hint: "Signs each batch with Standard Webhooks headers, as our webhooks are.",
    },
  ],
  syslog: [
    { name: "host", label: "Host", kind: "text", placeholder: "syslog.acme.com", half: true },
    { name: "port", label: "Port", kind: "port", placeholder: "6514", half: true },
    { name: "tls", label: "TLS (recommended)", kind: "checkbox" },
    {
      name: "ca",
      label: "CA certificates",
      kind: "certificates",
      optional: true,
      hint: "PEM certificates the receiver's certificate must chain to; empty: the system's.",
    },
  ],
};

export function isSecret(type: LogStreamType, name: string): boolean {
  return (SECRET_FIELDS[type] as readonly string[]).includes(name);
}

/** Where a stream's batches go, in a line: "s3://bucket/prefix", "syslog.acme.com:6514 (TLS)". */
export function destinationOf(stream: Pick<LogStream, "type" | "config">): string {
  const c = stream.config as Record<string, unknown>;
  const str = (key: string) => (typeof c[key] === "string" ? (c[key] as string) : "");
  switch (stream.type) {
    case "s3": {
      const at = str("endpoint") ? ` at ${hostOf(str("endpoint"))}` : "";
      return `s3://${str("bucket")}${str("prefix") ? `/${str("prefix")}` : ""}${at}`;
    }
    case "datadog":
      return `Datadog (${str("site")})`;
    case "splunk_hec":
    case "https":
      return str("url");
    case "syslog":
      return `${str("host")}:${String(c.port ?? "")}${c.tls === false ? " (plain TCP)" : " (TLS)"}`;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
