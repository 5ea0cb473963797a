/**
 * The OpenAPI document the app serves passes Redocly's linter (`@redocly/cli`, the `recommended`
 * rules, as redocly.yaml configures them) with no error and no warning. Redocly CLI has no Node API,
 * so its CLI lints the served document from a temporary file.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { fetchOpenApiDocument, type OpenApiDocument } from "../support/openapi-document.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CLI = join(ROOT, "node_modules/@redocly/cli/bin/cli.js");
const CONFIG = join(ROOT, "redocly.yaml");

interface Problem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  location: { pointer: string }[];
}

const api = apiServer();
let dir: string;
let doc: OpenApiDocument;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "openapi-lint-"));
  doc = await fetchOpenApiDocument(api.url);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * Lints each document with the project's configuration, in one run of the CLI (it starts in
 * seconds on a busy machine): the problems found in each, by name.
 */
async function lint(documents: Record<string, unknown>): Promise<Record<string, Problem[]>> {
  const files = Object.keys(documents).map((name) => join(dir, `${name}.json`));
  await Promise.all(Object.values(documents).map((document, i) => writeFile(files[i]!, JSON.stringify(document))));
  const args = [CLI, "lint", ...files, `--config=${CONFIG}`, "--format=json", "--max-problems=100000"];
  // Exit code 1 when it finds errors: the report says what they are either way.
  const { stdout } = await promisify(execFile)(process.execPath, args, {
    cwd: dir,
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string; stderr?: string }) => {
    if (!error.stdout) throw new Error(`redocly lint failed without a report: ${error.stderr ?? String(error)}`);
    return { stdout: error.stdout };
  });
  // One JSON report per file, in order, written one after the other.
  const reports = stdout
    .trim()
    .split(/\n\}\{\n/)
    .map((part, i, all) => (i > 0 ? "{" : "") + part + (i < all.length - 1 ? "}" : ""));
  expect(reports).toHaveLength(files.length);
  return Object.fromEntries(Object.keys(documents).map((name, i) => [name, (JSON.parse(reports[i]!) as { problems: Problem[] }).problems]));
}

const listed = (problems: Problem[]) => problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);

/** The served document, with one of each fault the linter found in it before (issue 40). */
function broken(): { document: OpenApiDocument; kind: string; scimPath: string } {
  const document = structuredClone(doc) as OpenApiDocument & { webhooks: Record<string, { post: Record<string, unknown> }> };
  const [kind, webhook] = Object.entries(document.webhooks)[0]!;
  delete webhook.post.security;
  const content = (webhook.post.requestBody as { content: Record<string, { example: Record<string, unknown> }> }).content;
  content["application/json"]!.example.created_at = "…";
  const [scimPath, scim] = Object.entries(document.paths).find(([path]) => path.startsWith("/api/scim/"))!;
  delete scim.get!.operationId;
  return { document, kind, scimPath };
}

describe("redocly lint (recommended)", () => {
  let found: Record<string, Problem[]>;
  let faults: ReturnType<typeof broken>;

  beforeAll(async () => {
    faults = broken();
    found = await lint({ served: doc, broken: faults.document });
  });

  test("finds no error and no warning in the served document", () => {
    expect(listed(found.served!)).toEqual([]);
  });

  test("reports what it is there to catch: an example breaking its format, an operation without operationId or security", () => {
    const { kind, scimPath } = faults;
    const escaped = scimPath.replaceAll("~", "~0").replaceAll("/", "~1");
    expect(found.broken!.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}`)).toEqual(
      expect.arrayContaining([
        `error security-defined #/webhooks/${kind}/post`,
        `warn no-invalid-media-type-examples #/webhooks/${kind}/post/requestBody/content/application~1json/example/created_at`,
        `warn operation-operationId #/paths/${escaped}/get/operationId`,
      ]),
    );
  });
});
