/**
 * The SDK as a user gets it (issue 40, item 9): `npm pack` of sdk/ (its prepare script builds
 * dist/), the tarball installed offline into an empty project outside the repository (so nothing
 * of the repository's node_modules is in reach), then a plain ESM script calling the real test
 * server through the installed package, and `tsc` type-checking a TypeScript file against the
 * installed declarations, whose `@ts-expect-error` lines prove the types are real, not `any`.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { tenantWithMembers } from "../support/fixtures.ts";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const SDK = path.join(ROOT, "sdk");
/** The child's environment without the npm_* settings an `npm test` run would hand down. */
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_"))) as NodeJS.ProcessEnv;

const api = apiServer();
let temp: string;
let project: string;
let packed: { filename: string; files: { path: string }[] };

beforeAll(async () => {
  temp = mkdtempSync(path.join(tmpdir(), "cp-sdk-package-"));
  const pack = await run("npm", ["pack", "--pack-destination", temp, "--json"], { cwd: SDK, env });
  packed = JSON.parse(pack.stdout)[0];
  project = path.join(temp, "project");
  await run("mkdir", [project]);
  writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "sdk-user", private: true, type: "module" }));
  await run("npm", ["install", path.join(temp, packed.filename), "--offline", "--no-audit", "--no-fund"], { cwd: project, env });
}, 120_000);

afterAll(() => {
  if (temp) rmSync(temp, { recursive: true, force: true });
});

test("the tarball holds the built package, with its declarations and no runtime dependencies", () => {
  const files = packed.files.map((f) => f.path);
  expect(files).toEqual(expect.arrayContaining(["package.json", "README.md", "dist/index.js", "dist/index.d.ts", "dist/schema.d.ts"]));
  expect(files.filter((f) => !f.startsWith("dist/") && f !== "package.json" && f !== "README.md")).toEqual([]); // no sources, no build script
  const installed = JSON.parse(readFileSync(path.join(project, "node_modules/@control-plane/sdk/package.json"), "utf8"));
  expect(installed.dependencies ?? {}).toEqual({});
  expect(installed.exports["."]).toEqual({ types: "./dist/index.d.ts", default: "./dist/index.js" });
});

test("an ESM script imports the installed package and calls the server", async () => {
  const world = await tenantWithMembers();
  writeFileSync(
    path.join(project, "script.mjs"),
    `import { ControlPlane, ControlPlaneError, ControlPlaneTimeoutError, verifyWebhook } from "@control-plane/sdk";
const cp = new ControlPlane({ baseUrl: process.env.CP_URL, token: process.env.CP_TOKEN, timeout: 10_000 });
const tenantId = process.env.TENANT_ID;
const tenant = await cp.tenants.get(tenantId);
const hook = await cp.webhooks.create(tenantId, { url: "http://127.0.0.1:9/hook", events: ["user.created"] });
const streams = await cp.logStreams.list(tenantId).toArray();
const missing = await cp.webhooks.get(tenantId, "00000000-0000-4000-8000-000000000000").catch((e) => e);
console.log(JSON.stringify({
  name: tenant.name,
  hooks: (await cp.webhooks.list(tenantId).toArray()).map((w) => w.id).includes(hook.id),
  streams: streams.length,
  missing: [missing instanceof ControlPlaneError, missing.status, missing.code],
  helpers: [typeof verifyWebhook, typeof ControlPlaneTimeoutError],
}));
`,
  );
  const { stdout } = await run("node", ["script.mjs"], {
    cwd: project,
    env: { ...env, CP_URL: api.url, CP_TOKEN: world.admin.token, TENANT_ID: world.tenant.id },
  });
  expect(JSON.parse(stdout)).toEqual({
    name: world.tenant.name,
    hooks: true,
    streams: 0,
    missing: [true, 404, "not_found"],
    helpers: ["function", "function"],
  });
});

test("tsc type-checks a TypeScript file against the installed declarations, and refuses what the API does not have", async () => {
  writeFileSync(
    path.join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        lib: ["ES2022"],
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        // A Node project has @types/node; this one borrows the repository's rather than install it.
        typeRoots: [path.join(ROOT, "node_modules/@types")],
        types: ["node"],
      },
      files: ["check.ts"],
    }),
  );
  writeFileSync(
    path.join(project, "check.ts"),
    `import { ControlPlane, ControlPlaneError, ControlPlaneTimeoutError, type Schema } from "@control-plane/sdk";

export async function check(cp: ControlPlane, tenantId: string): Promise<string> {
  const tenant: Schema<"Tenant"> = await cp.tenants.get(tenantId, { timeout: 5_000 });
  const stream: Schema<"LogStream"> = await cp.logStreams.create(tenantId, { name: "SIEM", type: "https", config: { url: "https://siem.example" } });
  for await (const hook of cp.webhooks.list(tenantId, { page_size: 50 })) void hook.url;
  await cp.http.GET("/tenants/{tenant_id}", { params: { path: { tenant_id: tenantId } } });
  const error: ControlPlaneError = new ControlPlaneTimeoutError({ timeoutMs: 1, attempts: 1 });
  void error;
  // @ts-expect-error a log stream type the API does not have
  await cp.logStreams.create(tenantId, { name: "x", type: "ftp", config: {} });
  // @ts-expect-error a misspelled field of a body
  await cp.webhooks.create(tenantId, { url: "https://acme.example/hooks", event: ["user.created"] });
  // @ts-expect-error a path the API does not have
  await cp.http.GET("/tenant/{tenant_id}", { params: { path: { tenant_id: tenantId } } });
  return tenant.name + stream.id;
}

new ControlPlane({ baseUrl: "https://cp.example.com", token: "cp_x", timeout: 30_000, retry: { maxRetries: 5 } });
`,
  );
  const tsc = path.join(ROOT, "node_modules/typescript/bin/tsc");
  const result = await run("node", [tsc, "-p", project], { cwd: project, env }).catch((e: { stdout: string; code: number }) => e);
  expect(result.stdout).toBe("");
}, 60_000);
