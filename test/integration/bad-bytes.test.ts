/**
 * Bad bytes are a 400 naming the field, everywhere: NUL, lone surrogates and bytes that are not
 * UTF-8, in every body field, query parameter and path parameter of every operation the served
 * OpenAPI document lists, in the stored headers, and in the body as a whole. Never a 5xx.
 */
import http from "node:http";
import { randomUUID } from "node:crypto";
import { beforeAll, beforeEach, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { createTenant, db, operator } from "../support/fixtures.ts";
import {
  fetchOpenApiDocument,
  operationsOf,
  resolveSchema,
  type JsonSchema,
  type JsonType,
  type OpenApiDocument,
  type Operation,
} from "../support/openapi-document.ts";

const api = apiServer();
let token: string;
let tenantId: string;
let doc: OpenApiDocument;
beforeAll(async () => {
  token = (await operator()).token;
  tenantId = (await createTenant()).id;
  doc = await fetchOpenApiDocument(api.url);
});

const isType = (schema: JsonSchema, type: JsonType): boolean =>
  schema.type === type ||
  (Array.isArray(schema.type) && schema.type.includes(type)) ||
  (schema.anyOf ?? schema.oneOf ?? []).some((s) => isType(resolveSchema(doc, s), type));

function pathOf(op: Operation, bad?: { name: string; raw: string }): string {
  return `/api/v1${op.template.replace(/\{(\w+)\}/g, (_, name: string) => (name === bad?.name ? bad.raw : name === "tenant_id" ? tenantId : randomUUID()))}`;
}

/** A problem+json answer, as far as these tests read it. */
interface Problem {
  code?: string;
  errors?: { path: string; message: string }[];
}

/**
 * Sends raw bytes (fetch would not send a body or header that is not UTF-8 as is). `T`: the JSON
 * answer expected (a problem unless said otherwise); undefined when the answer has no body.
 */
function raw<T = Problem>(
  method: string,
  path: string,
  body: Buffer | null,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: T | undefined }> {
  return new Promise((done, fail) => {
    const url = new URL(path, api.url);
    const req = http.request(
      url,
      { method, headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}), ...headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => done({ status: res.statusCode!, json: text ? (JSON.parse(text) as T) : undefined }));
      },
    );
    req.on("error", fail);
    req.end(body ?? undefined);
  });
}

const BAD_TEXT: [string, string][] = [
  ["NUL", "💥\u0000"],
  ["lone surrogate", "x\ud800y"],
];
// Percent-encoded: NUL, a byte that is never UTF-8, and a surrogate's UTF-8-like form (invalid).
const BAD_ESCAPES = ["%F0%9F%92%A5%00", "%FF", "x%ED%A0%80y"];

let failures: string[] = [];
beforeEach(() => {
  failures = [];
});
function expectField(what: string, response: { status: number; json: Problem | undefined }, field: string) {
  const ok = response.status === 400 && response.json?.code === "invalid_request" && response.json?.errors?.[0]?.path === field;
  if (!ok) failures.push(`${what}: ${response.status} ${JSON.stringify(response.json?.errors ?? response.json)}`);
}

test(
  "every string body field, query parameter and path parameter of every operation: bad text is a 400 naming it",
  { timeout: 120_000 },
  async () => {
    const ops = operationsOf(doc);
    expect(ops.length).toBeGreaterThan(30);
    let checked = 0;
    for (const op of ops) {
      for (const parameter of op.parameters.filter((p) => p.in === "path" || p.in === "query")) {
        for (const escape of BAD_ESCAPES) {
          const path =
            parameter.in === "path" ? pathOf(op, { name: parameter.name, raw: escape }) : `${pathOf(op)}?${parameter.name}=${escape}`;
          const body = op.body ? Buffer.from("{}") : null;
          expectField(
            `${op.method} ${op.template} ${parameter.in} ${parameter.name}=${escape}`,
            await raw(op.method, path, body),
            parameter.name,
          );
          checked++;
        }
      }
      if (!op.body) continue;
      for (const [name, schema] of Object.entries(op.body.properties ?? {})) {
        const field = resolveSchema(doc, schema);
        for (const [label, bad] of BAD_TEXT) {
          const [value, path] = isType(field, "string")
            ? [bad, name]
            : isType(field, "array")
              ? [[bad], `${name}.0`]
              : isType(field, "object")
                ? [{ note: bad }, `${name}.note`]
                : [undefined, ""];
          if (value === undefined) continue;
          const response = await raw(op.method, pathOf(op), Buffer.from(JSON.stringify({ [name]: value })));
          expectField(`${op.method} ${op.template} body ${name} (${label})`, response, path);
          checked++;
        }
      }
      const notUtf8 = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]);
      expectField(`${op.method} ${op.template} body not UTF-8`, await raw(op.method, pathOf(op), notUtf8), "body");
      checked++;
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(300);
  },
);

test("a key with NUL inside free-form JSON (audit details) is a 400 naming the object", async () => {
  const response = await raw(
    "POST",
    `/api/v1/tenants/${tenantId}/audit`,
    Buffer.from(JSON.stringify({ event_type: "app.thing_done", details: { "a\u0000": 1 } })),
  );
  expectField("details key", response, "details");
  expect(failures).toEqual([]);
});

test("stored headers that are not UTF-8 text are a 400 naming the header", async () => {
  const body = Buffer.from(JSON.stringify({ name: "headers" }));
  expectField("User-Agent", await raw("POST", "/api/v1/tenants", body, { "user-agent": "agent \xff\xfe" }), "User-Agent");
  expectField("Idempotency-Key", await raw("POST", "/api/v1/tenants", body, { "idempotency-key": "key-\xc3\x28" }), "Idempotency-Key");
  expect(failures).toEqual([]);
});

test("good text is stored exactly as sent: emoji, accents, and a UTF-8 User-Agent", async () => {
  const name = "💥 Ünïcødé ✓ 日本";
  const created = await raw<{ id: string; name: string }>("POST", "/api/v1/tenants", Buffer.from(JSON.stringify({ name })), {
    "user-agent": Buffer.from("agent é").toString("latin1"),
  });
  expect(created.status).toBe(201);
  expect(created.json?.name).toBe(name);
  const stored = await (await db()).tenant.findUniqueOrThrow({ where: { id: created.json!.id } });
  expect(stored.name).toBe(name);
  const event = await (await db()).auditEvent.findFirstOrThrow({ where: { tenantId: created.json!.id, eventType: "tenant.created" } });
  expect(event.userAgent).toBe("agent é");
});

test("integer query parameters are decimal digits: 0x10, 1e1 and padded numbers are a 400 naming the parameter", async () => {
  for (const bad of ["0x10", "1e1", "%207", "1.0", "Infinity"]) {
    expectField(`page_size=${bad}`, await raw("GET", `/api/v1/tenants?page_size=${bad}`, null), "page_size");
    expectField(
      `from_sequence=${bad}`,
      await raw("GET", `/api/v1/tenants/${tenantId}/audit/verify?from_sequence=${bad}`, null),
      "from_sequence",
    );
  }
  expect(failures).toEqual([]);
  expect((await raw("GET", "/api/v1/tenants?page_size=10&page=1", null)).status).toBe(200);
});
