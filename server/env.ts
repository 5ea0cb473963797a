/**
 * The typed environment. Parsed once from process.env; nothing else reads process.env.
 * A missing or malformed variable stops start-up with one line that names it.
 */
import "server-only";
import { isIP } from "node:net";
import { z } from "zod";

const bool = (name: string) =>
  z
    .enum(["true", "false", "1", "0"], { error: `${name} must be true or false` })
    .optional()
    .transform((v) => v === "true" || v === "1");

const count = (name: string, fallback: number, max = 1_000_000_000) =>
  z.coerce
    .number({ error: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .min(0, `${name} must be 0 or more`)
    .max(max, `${name} must be at most ${max}`)
    .default(fallback);

/** One resolver address as `Resolver#setServers` takes it: an IP, `ipv4:port`, or `[ipv6]:port`. */
function isDnsServer(entry: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
  const v4 = /^([0-9.]+):(\d{1,5})$/.exec(entry);
  const [host, port] = bracketed ? [bracketed[1]!, bracketed[2]] : v4 ? [v4[1]!, v4[2]] : [entry, undefined];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return false;
  return bracketed ? isIP(host) === 6 : isIP(host) !== 0;
}

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/.+/, "DATABASE_URL must be a postgres:// or postgresql:// URL")
    .optional(),
  PORT: z.coerce
    .number({ error: "PORT must be a number" })
    .int("PORT must be an integer")
    .min(1, "PORT must be 1-65535")
    .max(65535, "PORT must be 1-65535")
    .default(3000),
  APP_URL: z.url({ error: "APP_URL must be an absolute http(s) URL" }).optional(),
  DATA_DIR: z.string().min(1).default(".data"),
  NEXTAUTH_SECRET: z.string().min(32, "NEXTAUTH_SECRET must be at least 32 characters").optional(),
  ENCRYPTION_KEY: z
    .string()
    .regex(/^[A-Za-z0-9+/]{43}=$/, "ENCRYPTION_KEY must be 32 bytes, base64-encoded (44 characters)")
    .optional(),
  CRON_SECRET: z.string().min(16, "CRON_SECRET must be at least 16 characters").optional(),
  INTERNAL_CRON: z.enum(["on", "off"], { error: "INTERNAL_CRON must be on or off" }).default("on"),
  BOOTSTRAP_ADMIN_EMAIL: z.email({ error: "BOOTSTRAP_ADMIN_EMAIL must be an email address" }).optional(),
  BOOTSTRAP_ADMIN_PASSWORD: z.string().min(8, "BOOTSTRAP_ADMIN_PASSWORD must be at least 8 characters").optional(),
  BOOTSTRAP_TOKEN: z
    .string()
    .regex(/^cp_[A-Za-z0-9_-]{32,}$/, "BOOTSTRAP_TOKEN must look like cp_ followed by at least 32 URL-safe characters")
    .optional(),
  OUTBOUND_ALLOW_PRIVATE: bool("OUTBOUND_ALLOW_PRIVATE"),
  // Operators and support must enrol a second factor before the console lets them do anything else.
  PLATFORM_REQUIRE_MFA: bool("PLATFORM_REQUIRE_MFA"),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .regex(/^\d+(,\d+)*$/, "WEBHOOK_RETRY_SCHEDULE must be comma-separated seconds, e.g. 1,2,4")
    .optional()
    .transform((v) => v?.split(",").map(Number)),
  WEBHOOK_TIMEOUT_SECONDS: z.coerce
    .number({ error: "WEBHOOK_TIMEOUT_SECONDS must be a number" })
    .min(0.1, "WEBHOOK_TIMEOUT_SECONDS must be at least 0.1")
    .max(60, "WEBHOOK_TIMEOUT_SECONDS must be at most 60")
    .default(5),
  TRUST_PROXY: bool("TRUST_PROXY"),
  METRICS_TOKEN: z.string().min(16, "METRICS_TOKEN must be at least 16 characters").optional(),
  // Server processes sharing PORT (node:cluster, server/ops/cluster.ts); more than 1 needs Postgres.
  WEB_CONCURRENCY: count("WEB_CONCURRENCY", 1, 64).refine((n) => n > 0, "WEB_CONCURRENCY must be 1 or more"),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce
    .number({ error: "SHUTDOWN_TIMEOUT_SECONDS must be a number" })
    .int("SHUTDOWN_TIMEOUT_SECONDS must be an integer")
    .min(0, "SHUTDOWN_TIMEOUT_SECONDS must be 0 or more")
    .max(3600, "SHUTDOWN_TIMEOUT_SECONDS must be at most 3600")
    .default(10),
  // Its format is the secrets' to check (server/secrets/store.ts), when start-up reads them.
  AUDIT_SIGNING_KEY: z.string().optional(),
  SSO_CLOCK_SKEW_SECONDS: z.coerce
    .number({ error: "SSO_CLOCK_SKEW_SECONDS must be a number of seconds" })
    .int("SSO_CLOCK_SKEW_SECONDS must be a whole number of seconds")
    .min(0, "SSO_CLOCK_SKEW_SECONDS must be 0-600")
    .max(600, "SSO_CLOCK_SKEW_SECONDS must be 0-600")
    .default(60),
  // Audit events are kept this long (whole months are dropped once past it); the database
  // refuses less than a year (audit_events_purge).
  AUDIT_RETENTION_DAYS: z.coerce
    .number({ error: "AUDIT_RETENTION_DAYS must be a number of days" })
    .int("AUDIT_RETENTION_DAYS must be a whole number of days")
    .min(365, "AUDIT_RETENTION_DAYS must be at least 365")
    .default(2557),
  // The Events API serves a tenant's events this long after they were recorded (GET /tenants/{id}/events).
  EVENTS_RETENTION_DAYS: z.coerce
    .number({ error: "EVENTS_RETENTION_DAYS must be a number of days" })
    .int("EVENTS_RETENTION_DAYS must be a whole number of days")
    .min(1, "EVENTS_RETENTION_DAYS must be at least 1")
    .default(30),
  // Log streams (server/log-streams/): a batch closes at 1,000 events or once its oldest event has waited this long.
  LOG_STREAM_BATCH_WAIT_MS: z.coerce
    .number({ error: "LOG_STREAM_BATCH_WAIT_MS must be a number of milliseconds" })
    .int("LOG_STREAM_BATCH_WAIT_MS must be a whole number of milliseconds")
    .min(0, "LOG_STREAM_BATCH_WAIT_MS must be at least 0")
    .max(60_000, "LOG_STREAM_BATCH_WAIT_MS must be at most 60000")
    .default(5000),
  // How often each instance looks for log streams with events to send (and after every batch at once).
  LOG_STREAM_POLL_MS: z.coerce
    .number({ error: "LOG_STREAM_POLL_MS must be a number of milliseconds" })
    .int("LOG_STREAM_POLL_MS must be a whole number of milliseconds")
    .min(50, "LOG_STREAM_POLL_MS must be at least 50")
    .max(60_000, "LOG_STREAM_POLL_MS must be at most 60000")
    .default(1000),
  // API rate limits (server/auth/rate-limit.ts): requests per window; 0 turns that limit off.
  RATE_LIMIT_PER_TOKEN: count("RATE_LIMIT_PER_TOKEN", 600),
  // Audit appends (single and batch) per token, counted apart from RATE_LIMIT_PER_TOKEN.
  RATE_LIMIT_PER_TOKEN_INGEST: count("RATE_LIMIT_PER_TOKEN_INGEST", 6000),
  RATE_LIMIT_PER_IP: count("RATE_LIMIT_PER_IP", 60),
  // Every request per address to the routes Next serves that take calls without a token:
  // /api/trpc, /api/auth/*, /api/sso/*, the console's export (server/ops/entry-limit.ts).
  RATE_LIMIT_PER_IP_CONSOLE: count("RATE_LIMIT_PER_IP_CONSOLE", 1200),
  // SCIM requests per window per directory (server/directories/scim/endpoint.ts): an IdP's sync.
  RATE_LIMIT_PER_DIRECTORY: count("RATE_LIMIT_PER_DIRECTORY", 1200),
  RATE_LIMIT_WINDOW_SECONDS: count("RATE_LIMIT_WINDOW_SECONDS", 60, 86_400).refine(
    (n) => n > 0,
    "RATE_LIMIT_WINDOW_SECONDS must be 1 or more",
  ),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/.+/, "SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587")
    .optional(),
  MAIL_FROM: z.string().min(3, "MAIL_FROM must be an address, e.g. Control Plane <no-reply@example.com>").optional(),
  // Resolvers for domain verification (server/domains/dns.ts); the system's when unset.
  DNS_SERVERS: z
    .string()
    .transform((v) => v.split(",").map((entry) => entry.trim()))
    .refine(
      (list) => list.every(isDnsServer),
      "DNS_SERVERS must be comma-separated IP addresses, each with an optional :port (IPv6 with a port as [addr]:port)",
    )
    .optional(),
  // The label before the domain of its verification TXT record.
  DOMAIN_VERIFICATION_PREFIX: z
    .string()
    .regex(
      /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*$/,
      "DOMAIN_VERIFICATION_PREFIX must be DNS labels (letters, digits, _ and -), e.g. _control-plane-verification",
    )
    .transform((v) => v.toLowerCase())
    .default("_control-plane-verification"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
});

export type Env = z.infer<typeof EnvSchema>;

export class EnvError extends Error {
  override name = "EnvError";
}

/** Parses an environment record; throws EnvError with a one-line message naming the variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings count as unset, as in most deployment tools.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0] ?? "environment");
    const message = issue.message.includes(name) ? issue.message : `${name}: ${issue.message}`;
    throw new EnvError(`Invalid environment: ${message}`);
  }
  const env = result.data;
  if (env.BOOTSTRAP_ADMIN_EMAIL && !env.BOOTSTRAP_ADMIN_PASSWORD) {
    throw new EnvError("Invalid environment: BOOTSTRAP_ADMIN_PASSWORD is required with BOOTSTRAP_ADMIN_EMAIL");
  }
  if (env.BOOTSTRAP_TOKEN && !env.BOOTSTRAP_ADMIN_EMAIL) {
    throw new EnvError("Invalid environment: BOOTSTRAP_TOKEN needs BOOTSTRAP_ADMIN_EMAIL (the token's owner)");
  }
  if (env.WEB_CONCURRENCY > 1 && !env.DATABASE_URL) {
    throw new EnvError("Invalid environment: WEB_CONCURRENCY above 1 needs DATABASE_URL (the embedded database admits one process)");
  }
  return env;
}

let cached: Env | undefined;

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Forgets what env() read: the next call reads process.env again (test files that share a process set their own). */
export function reloadEnv(): void {
  cached = undefined;
}

/** The public base URL of the app, for links in e-mails and the console. */
export function appUrl(): string {
  const e = env();
  return (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, "");
}
