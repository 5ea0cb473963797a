/**
 * Property-based fuzzing of every operation of the served OpenAPI document, as a tenant admin and
 * as a viewer: wrong types, missing and extra fields, huge and empty strings, boundary numbers,
 * bad UUIDs and cursors in body, query and path. Fails on any 5xx, on a stack trace or SQL text
 * in a response, on a 2xx for a request the document's schemas forbid, and on a 2xx that echoes
 * text changed on the way in (U+FFFD the client never sent).
 * Replay a failure with the seed it prints: FUZZ_SEED=<seed> (FUZZ_RUNS=<n> for more runs).
 */
import http from "node:http";
import fc from "fast-check";
import { beforeAll, describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, tenantWithMembers } from "../support/fixtures.ts";
import { letters, makeArbitraries, type Gen } from "../support/openapi-arbitraries.ts";
import { fetchOpenApiDocument, operationsOf, type OpenApiDocument, type Operation, type Parameter } from "../support/openapi-document.ts";

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
console.log(
  `fuzz: seed ${SEED}, ${RUNS} runs per operation and role (replay: FUZZ_SEED=${SEED} npx vitest run test/integration/fuzz.test.ts)`,
);

const api = apiServer();
let doc: OpenApiDocument;
let tenantId: string;
let tokens: Record<"admin" | "viewer", string>;
let userIds: string[];
let cursors: string[] = [];

beforeAll(async () => {
  const setup = await tenantWithMembers();
  tenantId = setup.tenant.id;
  tokens = { admin: setup.admin.token, viewer: setup.viewer.token };
  userIds = [setup.admin.user.id, setup.viewer.user.id];
  const admin = client(api.url, tokens.admin);
  doc = await fetchOpenApiDocument(api.url);
  for (let i = 0; i < 3; i++)
    await admin.post(`/api/v1/tenants/${tenantId}/audit`, { event_type: "fuzz.seeded", actor: { id: `actor-${i}` } });
  const page = (await admin.get(`/api/v1/tenants/${tenantId}/audit?page_size=1`)).json;
  const real = page.next_cursor as string;
  // Real cursors, and the ways a client could mangle one.
  cursors = [
    real,
    real.slice(0, -3),
    `${real}AAAA`,
    real.split("").reverse().join(""),
    Buffer.from('{"t":"x","i":1}').toString("base64url"),
    Buffer.from("[1,2,3]").toString("base64url"),
    Buffer.from(`${"9".repeat(400)}`).toString("base64url"),
    "%%%",
    "null",
  ];
});

// Stack frames, file positions, and SQL or driver messages: none may reach a client.
const LEAKS = [
  /\n\s+at [\w.<>]+ \(/,
  /\.(ts|js|mjs):\d+:\d+/,
  /\b(SELECT|INSERT INTO|DELETE FROM)\b[\s\S]*\b(FROM|VALUES|WHERE)\b/,
  /violates [\w-]+ constraint/,
  /syntax error at or near/,
  /invalid input syntax for type/,
  /PrismaClient|node_modules/,
];

const ok = (value: unknown): Gen => ({ value, forbidden: null });
const bad =
  (label: string) =>
  (value: unknown): Gen => ({ value, forbidden: label });

/** Query and path values are strings on the wire: their own generators. */
function wireValue(parameter: Parameter): fc.Arbitrary<Gen> {
  const s = parameter.schema ?? {};
  const valid: fc.Arbitrary<Gen>[] = [];
  const invalid: fc.Arbitrary<Gen>[] = [];
  if (parameter.in === "path") {
    valid.push(
      parameter.name === "tenant_id" ? fc.constant(tenantId).map(ok) : fc.uuid({ version: 4 }).map(ok),
      fc.string({ minLength: 1, maxLength: 30 }).map(ok),
    );
  } else if (parameter.name === "cursor") {
    valid.push(fc.constantFrom(...cursors).map(ok), fc.base64String({ maxLength: 60 }).map(ok));
  } else if (s.enum) {
    valid.push(fc.constantFrom(...s.enum.map(String)).map(ok));
    invalid.push(fc.constant("not-one-of-the-values").map(bad("not in enum")));
  } else if (s.type === "integer") {
    const min = s.minimum ?? -(2 ** 31);
    const max = Math.min(s.maximum ?? 2 ** 31, 2 ** 31);
    valid.push(
      fc.integer({ min, max }).map((n) => ok(String(n))),
      fc.constantFrom(String(min), String(max)).map(ok),
    );
    invalid.push(fc.constantFrom("abc", "1.5", "1e999", "0x10", "--1").map(bad("not an integer")));
    if (s.minimum !== undefined) invalid.push(fc.constant(String(s.minimum - 1)).map(bad(`below ${s.minimum}`)));
    // Documented as read at its maximum above it (page_size): a larger value is valid.
    const clamped = / is read as /.test(`${parameter.description ?? ""} ${s.description ?? ""}`);
    if (s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER)
      (clamped ? valid : invalid).push(fc.constant(String(s.maximum + 1)).map(clamped ? ok : bad(`above ${s.maximum}`)));
  } else if (s.format === "uuid") {
    valid.push(fc.uuid({ version: 4 }).map(ok));
    invalid.push(fc.constantFrom("not-a-uuid", "123", "g0000000-0000-4000-8000-000000000000").map(bad("not a uuid")));
  } else {
    valid.push(
      fc.string({ minLength: s.minLength ?? 0, maxLength: 40 }).map(ok),
      fc.constantFrom("2026-01-01", "2026-01-01T00:00:00Z", "user.*", "a,b").map(ok),
    );
  }
  if (s.maxLength !== undefined) invalid.push(letters(s.maxLength + 1).map(bad(`longer than ${s.maxLength}`)));
  if (s.minLength) invalid.push(fc.constant("").map(bad(`shorter than ${s.minLength}`)));
  const choices = [...valid.map((arbitrary) => ({ weight: 3, arbitrary })), ...invalid.map((arbitrary) => ({ weight: 1, arbitrary }))];
  const value = fc.oneof(...choices);
  return parameter.in === "path" || parameter.required
    ? value
    : fc.option(value, { nil: { value: undefined, forbidden: null } as Gen, freq: 2 });
}

interface Request {
  path: string;
  body: Gen | null;
  idempotencyKey: Gen | null;
  forbidden: string[];
}

function requestOf(op: Operation): fc.Arbitrary<Request> {
  const arbitraries = makeArbitraries(doc, { tenant_id: fc.constant(tenantId), user_id: fc.constantFrom(...userIds) });
  const params = op.parameters.filter((p) => p.in === "path" || p.in === "query");
  const values = fc.tuple(...params.map(wireValue));
  const body = op.body
    ? fc.oneof(
        { weight: 6, arbitrary: arbitraries.gen(op.body) },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom("[]", "null", '"text"', "42")
            .map((raw) => ({ value: JSON.parse(raw), forbidden: "body not an object" })),
        },
      )
    : fc.constant(null);
  const keyOk = fc.stringMatching(/^[A-Za-z0-9-]{1,40}$/).map(ok);
  const key = op.body
    ? fc.oneof(
        { weight: 4, arbitrary: fc.constant(null) },
        { weight: 2, arbitrary: keyOk },
        { weight: 1, arbitrary: letters(256).map(bad("Idempotency-Key longer than 255")) },
      )
    : fc.constant(null);
  return fc.tuple(values, body, key).map(([vals, b, k]) => {
    let path = op.template;
    const query = new URLSearchParams();
    const forbidden: string[] = [];
    params.forEach((p, i) => {
      const v = vals[i]!;
      if (v.forbidden) forbidden.push(`${p.name}: ${v.forbidden}`);
      if (v.value === undefined) return;
      if (p.in === "path") path = path.replace(`{${p.name}}`, encodeURIComponent(String(v.value)));
      else query.set(p.name, String(v.value));
    });
    if (b?.forbidden) forbidden.push(`body ${b.forbidden}`);
    if (k?.forbidden) forbidden.push(k.forbidden);
    const search = query.toString();
    return { path: `/api/v1${path}${search ? `?${search}` : ""}`, body: b, idempotencyKey: k, forbidden };
  });
}

/** One connection per request (agent: false): a reset connection can only be the server's doing. */
function send(op: Operation, role: "admin" | "viewer", request: Request): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { authorization: `Bearer ${tokens[role]}` };
  if (request.body) headers["content-type"] = "application/json";
  if (request.idempotencyKey) headers["idempotency-key"] = String(request.idempotencyKey.value);
  const body = request.body ? (request.body.value === undefined ? "" : JSON.stringify(request.body.value)) : undefined;
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(request.path, api.url), { method: op.method, headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe.each(["admin", "viewer"] as const)("fuzzing every operation as a tenant %s", (role) => {
  test("no 5xx, no stack traces or SQL, no 2xx for what the schema forbids", { timeout: 120_000 }, async () => {
    const ops = operationsOf(doc);
    expect(ops.length).toBeGreaterThan(30);
    for (const [index, op] of ops.entries()) {
      await fc.assert(
        fc.asyncProperty(requestOf(op), async (request) => {
          const { status, text } = await send(op, role, request);
          if (process.env.FUZZ_LOG)
            console.log(
              `${role} ${op.method} ${request.path} ${JSON.stringify(request.body?.value)?.slice(0, 120)} → ${status} ${text.slice(0, 160)}`,
            );
          const where = `${op.method} ${request.path} body=${JSON.stringify(request.body?.value)?.slice(0, 300)} → ${status} ${text.slice(0, 300)}`;
          if (status >= 500) throw new Error(`5xx: ${where}`);
          const leak = LEAKS.find((pattern) => pattern.test(text));
          if (leak) throw new Error(`response leaks internals (${leak}): ${where}`);
          if (status < 300 && request.forbidden.length)
            throw new Error(`2xx for a request the schema forbids (${request.forbidden.join("; ")}): ${where}`);
          // A replacement character the client never sent: text was silently changed on the way in.
          const sent = JSON.stringify(request.body?.value ?? null) + decodeURIComponent(request.path);
          if (status < 300 && text.includes("\ufffd") && !sent.includes("\ufffd"))
            throw new Error(`2xx with text the client did not send (U+FFFD): ${where}`);
        }),
        { seed: SEED + index, numRuns: RUNS, endOnFailure: true },
      );
    }
  });
});
