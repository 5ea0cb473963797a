/**
 * The compiled production server (scripts/build-server.mjs): what `npm start` and a container run
 * is plain `node` on JavaScript, with no tsx anywhere in its process tree, serving the probes and
 * the REST API, and draining on SIGTERM to exit 0.
 *
 * It serves the Next production build in NEXT_DIST_DIR (else .next), which this test does not
 * make (minutes). `npm test` runs it after its own build, where a missing build fails it; run by
 * hand without a build, it is skipped, saying so. The e2e journeys and `bench:memory --smoke` run the compiled server after the build in any case.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { until } from "../support/until.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const NEXT_DIST_DIR = process.env.NEXT_DIST_DIR || ".next";
const hasNextBuild = existsSync(path.join(ROOT, NEXT_DIST_DIR, "BUILD_ID"));
// `npm test` runs this file on its own once its build has finished, with REQUIRE_NEXT_BUILD=1:
// there a missing build is a failure, never a skip.
if (!hasNextBuild && process.env.REQUIRE_NEXT_BUILD === "1") {
  throw new Error(`compiled-server.test.ts: no Next production build in ${NEXT_DIST_DIR}/ (REQUIRE_NEXT_BUILD=1)`);
}
if (!hasNextBuild) console.warn(`compiled-server.test.ts skipped: no Next production build in ${NEXT_DIST_DIR}/`);

/** Its own output directory, so the test never replaces a build someone is running. */
const OUTDIR = `dist/test-${process.pid}`;
const PORT = 34300 + (process.pid % 50);
const URL_ = `http://127.0.0.1:${PORT}`;
const TOKEN = `cp_${randomBytes(32).toString("base64url")}`;

/** The command line of every process under `root` (itself included), from /proc. */
function processTree(root: number): { pid: number; cmdline: string }[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree: { pid: number; cmdline: string }[] = [];
  const visit = (pid: number) => {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
    tree.push({ pid, cmdline });
    for (const child of parents.get(pid) ?? []) visit(child);
  };
  visit(root);
  return tree;
}

describe.skipIf(!hasNextBuild)("the compiled production server", () => {
  let server: ChildProcess;
  let output = "";
  let exited: Promise<number | null>;

  beforeAll(async () => {
    const build = spawnSync(process.execPath, ["scripts/build-server.mjs", "--outdir", OUTDIR], { cwd: ROOT, encoding: "utf8" });
    expect(build.status, build.stderr).toBe(0);
    // serve.js is what start.js runs once it has checked the Next build; start.js itself would
    // rebuild a stale one here, beside the build `npm test` runs.
    server = spawn(process.execPath, [path.join(OUTDIR, "serve.js")], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        NEXT_DIST_DIR,
        NEXT_TELEMETRY_DISABLED: "1",
        PORT: String(PORT),
        DATABASE_URL: process.env.DATABASE_URL,
        NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET,
        ENCRYPTION_KEY: process.env.ENCRYPTION_KEY,
        AUDIT_SIGNING_KEY: process.env.AUDIT_SIGNING_KEY,
        APP_URL: URL_,
        BOOTSTRAP_ADMIN_EMAIL: "compiled-operator@example.com",
        BOOTSTRAP_ADMIN_PASSWORD: randomBytes(12).toString("base64url"),
        BOOTSTRAP_TOKEN: TOKEN,
        INTERNAL_CRON: "off",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    server.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    exited = new Promise((resolve) => server.once("exit", (code) => resolve(code)));
    await until(
      async () => {
        if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}):\n${output}`);
        return (await fetch(`${URL_}/api/health/ready`).catch(() => undefined))?.status;
      },
      (status) => status === 200,
      { timeoutMs: 60_000, intervalMs: 200, message: () => `not ready within 60 s:\n${output}` },
    );
  }, 90_000);

  afterAll(async () => {
    if (server?.exitCode === null) server.kill("SIGKILL");
    rmSync(path.join(ROOT, OUTDIR), { recursive: true, force: true });
  });

  test("is plain node running the compiled JavaScript: no tsx and no npm in its process tree", () => {
    const tree = processTree(server.pid!);
    expect(tree[0]!.cmdline).toBe(`${process.execPath} ${path.join(OUTDIR, "serve.js")}`);
    expect(existsSync(path.join(ROOT, OUTDIR, "start.js"))).toBe(true);
    expect(tree.filter(({ cmdline }) => /tsx|npm/.test(cmdline))).toEqual([]);
  });

  test("answers the readiness probe and an authenticated REST call", async () => {
    const ready = await fetch(`${URL_}/api/health/ready`);
    expect(ready.status).toBe(200);
    const created = await fetch(`${URL_}/api/v1/tenants`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Compiled Co" }),
    });
    expect(created.status).toBe(201);
    const list = await fetch(`${URL_}/api/v1/tenants?search=Compiled`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(list.status).toBe(200);
    const body = (await list.json()) as { results: { name: string }[] };
    expect(body.results.map((t) => t.name)).toContain("Compiled Co");
  });

  test("drains on SIGTERM, finishing the request in flight, and exits 0", async () => {
    const inFlight = fetch(`${URL_}/api/v1/tenants`, { headers: { authorization: `Bearer ${TOKEN}` } });
    await new Promise((resolve) => setTimeout(resolve, 5));
    server.kill("SIGTERM");
    expect((await inFlight).status).toBe(200);
    expect(await exited).toBe(0);
    await expect(fetch(`${URL_}/api/health/ready`)).rejects.toThrow();
  }, 30_000);
});
