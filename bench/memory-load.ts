/**
 * bench:memory's mixed load on one app: what an instance serves in a working day, in fixed
 * proportions per 100 requests: 50 REST reads (tenant lists and pages, a tenant, its audit log,
 * webhooks and members), 20 audit appends (each fanned out to a webhook on a local receiver), 20
 * console pages (server-rendered, signed in), 9 readiness probes and 1 audit export (CSV). Every
 * answer must be the expected status: the load is also a check that the server keeps working.
 */
import { randomBytes } from "node:crypto";

export interface Fixture {
  url: string;
  token: string;
  tenantId: string;
  /** The console's session cookie (next-auth), from a password sign-in. */
  cookie: string;
}

interface Step {
  name: string;
  method?: "GET" | "POST";
  path: (f: Fixture, n: number) => string;
  body?: (n: number) => unknown;
  console?: boolean;
  status: number;
}

const read = (name: string, path: Step["path"]): Step => ({ name, path, status: 200 });
const page = (name: string, path: Step["path"]): Step => ({ name, path, console: true, status: 200 });
const append: Step = {
  name: "audit append",
  method: "POST",
  path: (f) => `/api/v1/tenants/${f.tenantId}/audit`,
  body: (n) => ({
    event_type: "bench.memory",
    actor: { id: `user-${n % 50}`, email: `user-${n % 50}@example.com` },
    target: { type: "document", id: `doc-${n}` },
    details: { n, note: randomBytes(12).toString("hex") },
  }),
  status: 201,
};

/** Twenty steps; a run goes round them (the export replaces a probe every fifth round). */
const CYCLE: Step[] = [
  read("tenants list", (_, n) => `/api/v1/tenants?page_size=20&page=${1 + (n % 50)}`),
  append,
  page("console tenants", () => "/tenants"),
  read("tenant", (f) => `/api/v1/tenants/${f.tenantId}`),
  read("audit list", (f) => `/api/v1/tenants/${f.tenantId}/audit?page_size=50`),
  append,
  page("console audit", (f) => `/tenants/${f.tenantId}/audit`),
  read("tenants search", (_, n) => `/api/v1/tenants?search=Tenant%20${n % 100}`),
  read("webhooks list", (f) => `/api/v1/tenants/${f.tenantId}/webhooks`),
  append,
  page("console webhooks", (f) => `/tenants/${f.tenantId}/webhooks`),
  read("members list", (f) => `/api/v1/tenants/${f.tenantId}/members`),
  read("tenants list", () => "/api/v1/tenants?page_size=100"),
  append,
  page("console members", (f) => `/tenants/${f.tenantId}/members`),
  read("audit list", (f) => `/api/v1/tenants/${f.tenantId}/audit?page_size=10`),
  read("tenant", (f) => `/api/v1/tenants/${f.tenantId}`),
  read("ready", () => "/api/health/ready"),
  read("ready", () => "/api/health/ready"),
  read("ready", () => "/api/health/ready"),
];
const EXPORT: Step = read("audit export", (f) => `/api/v1/tenants/${f.tenantId}/audit/export?format=csv`);

function stepAt(n: number): Step {
  const step = CYCLE[n % CYCLE.length]!;
  return n % (CYCLE.length * 5) === CYCLE.length - 1 ? EXPORT : step;
}

export interface LoadResult {
  requests: number;
  appends: number;
  seconds: number;
}

/**
 * Sends the mix at `concurrency` until `count` requests were answered, or until `seconds` passed
 * (whichever is given). `onTick` runs every 250 ms meanwhile (to sample memory under load).
 */
export async function mixedLoad(
  f: Fixture,
  options: { concurrency: number; count?: number; seconds?: number; onTick?: () => void },
): Promise<LoadResult> {
  const started = performance.now();
  const until = options.seconds === undefined ? Infinity : started + options.seconds * 1000;
  const limit = options.count ?? Infinity;
  let next = 0;
  let appends = 0;
  const ticker = setInterval(() => options.onTick?.(), 250);
  const worker = async () => {
    for (let n = next++; n < limit && performance.now() < until; n = next++) {
      const step = stepAt(n);
      const headers: Record<string, string> = step.console ? { cookie: f.cookie } : { authorization: `Bearer ${f.token}` };
      if (step.body) headers["content-type"] = "application/json";
      const response = await fetch(`${f.url}${step.path(f, n)}`, {
        method: step.method ?? "GET",
        headers,
        body: step.body ? JSON.stringify(step.body(n)) : undefined,
        redirect: "manual",
      });
      const text = await response.text();
      if (response.status !== step.status) throw new Error(`${step.name}: ${response.status} ${text.slice(0, 300)}`);
      if (step === append) appends += 1;
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } finally {
    clearInterval(ticker);
  }
  return { requests: next - options.concurrency, appends, seconds: (performance.now() - started) / 1000 };
}

/** A console session: next-auth's password sign-in over HTTP (CSRF token, then the credentials callback). */
export async function signInCookie(url: string, email: string, password: string): Promise<string> {
  const csrf = await fetch(`${url}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]);
  const response = await fetch(`${url}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie.join("; ") },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
    redirect: "manual",
  });
  const session = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => c.startsWith("next-auth.session-token="));
  if (!session) throw new Error(`console sign-in failed: ${response.status} ${await response.text()}`);
  return session;
}
