/**
 * The settings every benchmark starts the app with, said once. A bench overrides one only where
 * its measurement is about that setting (the rate limiter's cost runs an instance with the limits
 * off; the webhook bench turns the in-process cron on), and every report prints what its apps
 * ran with (`settingsLine`), so a number is never read without the settings behind it.
 */
export const APP_SETTINGS: Readonly<Record<string, string>> = {
  // Every limit on and counted per request, at quotas no run reaches: a bench measures the work
  // the limiter adds, never a 429 (with the defaults, bench:webhooks stopped at its first append).
  RATE_LIMIT_PER_TOKEN: "1000000000",
  RATE_LIMIT_PER_TOKEN_INGEST: "1000000000",
  RATE_LIMIT_PER_IP: "1000000000",
  RATE_LIMIT_PER_IP_CONSOLE: "1000000000",
  RATE_LIMIT_PER_DIRECTORY: "1000000000",
  // The receivers a bench runs (webhooks, identity providers) listen on 127.0.0.1.
  OUTBOUND_ALLOW_PRIVATE: "true",
  // The production retry schedule (server/webhooks/sink.ts), written out so a run never inherits a test's.
  WEBHOOK_RETRY_SCHEDULE: "5,300,1800,7200,18000,36000,36000",
  // One process per instance; the periodic jobs only where a bench asks for them.
  WEB_CONCURRENCY: "1",
  INTERNAL_CRON: "off",
  LOG_LEVEL: "warn",
};

/** Every limit off (0): the other side of the rate limiter's cost, and benches that measure without it. */
export const LIMITS_OFF: Readonly<Record<string, string>> = {
  RATE_LIMIT_PER_TOKEN: "0",
  RATE_LIMIT_PER_TOKEN_INGEST: "0",
  RATE_LIMIT_PER_IP: "0",
  RATE_LIMIT_PER_IP_CONSOLE: "0",
  RATE_LIMIT_PER_DIRECTORY: "0",
};

const changes = new Set<string>();

/** The settings an app (or the bench's own process, for in-process benches) runs with: APP_SETTINGS under `overrides`. */
export function settingsFor(who: string, overrides: Record<string, string> = {}): Record<string, string> {
  const changed = Object.entries(overrides)
    .filter(([key, value]) => key in APP_SETTINGS && APP_SETTINGS[key] !== value)
    .map(([key, value]) => `${key}=${value}`);
  if (changed.length) changes.add(`${who}: ${changed.join(" ")}`);
  return { ...APP_SETTINGS, ...overrides };
}

/** One line for a report: the shared settings, then what a bench changed and for which app. */
export function settingsLine(): string {
  const base = Object.entries(APP_SETTINGS)
    .map(([key, value]) => `${key}=${value}`)
    .join(" ");
  return `App settings (bench/settings.ts): ${base}${changes.size ? `; changed: ${[...changes].join("; ")}` : ""}.`;
}
