import { beforeAll, describe, expect, test } from "vitest";
import { Validator } from "@seriousme/openapi-schema-validator";
import { apiServer } from "../support/api-server.ts";
import { createTestDirectory } from "../support/directories.ts";
import { createTenant } from "../support/fixtures.ts";
import { operationAt, type Method, type OpenApiDocument } from "../support/openapi-document.ts";
import { appRouter } from "../../server/app/router.ts";
import type { Meta } from "../../server/trpc/meta.ts";
import { EVENT_TYPES } from "../../server/events/types.ts";

const api = apiServer();
let doc: OpenApiDocument;

beforeAll(async () => {
  const res = await fetch(`${api.url}/api/v1/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get("x-request-id")).toBeTruthy();
  doc = (await res.json()) as OpenApiDocument;
});

/** Every REST operation the routers declare: the document must show each one. */
const operations = Object.values(appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>)
  .map((p) => p._def.meta)
  .filter((meta): meta is Meta & { openapi: NonNullable<Meta["openapi"]> } => Boolean(meta?.openapi))
  .map((meta) => ({
    method: meta.openapi.method.toLowerCase() as Method,
    path: meta.openapi.path,
    successStatus: meta.successStatus ?? 200,
    location: meta.location,
    isPublic: !meta.access,
    signedInOptional: meta.signedInOptional ?? false,
  }));

describe("GET /api/v1/openapi.json", () => {
  test("is a valid OpenAPI 3.1 document whose references all resolve", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  test("points its server at the origin it was fetched from", () => {
    expect(doc.servers).toEqual([{ url: `${api.url}/api/v1` }]);
  });

  test("declares the bearer scheme", () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
  });

  test.each(operations.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))("documents %s fully", (_label, op) => {
    const operation = doc.paths[op.path]?.[op.method];
    expect(operation).toBeDefined();
    const publicSecurity = op.signedInOptional ? [{}, { bearerAuth: [] }] : [];
    expect(operation?.security).toEqual(op.isPublic ? publicSecurity : [{ bearerAuth: [] }]);
    const responses = operation?.responses ?? {};
    expect(responses[String(op.successStatus)]).toBeDefined();
    expect(responses[String(op.successStatus)]?.headers?.["X-Request-Id"]).toBeDefined();
    for (const status of ["400", "401", "403", "404", "429", "500"]) {
      if (op.isPublic && !op.signedInOptional && ["401", "403"].includes(status)) expect(responses[status]).toBeUndefined();
      else expect(responses[status]).toEqual({ $ref: `#/components/responses/Problem${status}` });
    }
    if (op.successStatus === 201) expect(Boolean(responses["201"]?.headers?.Location)).toBe(op.location !== false);
    const idempotency = (operation?.parameters ?? []).some((p) => "$ref" in p && p.$ref === "#/components/parameters/IdempotencyKey");
    expect(idempotency).toBe(["post", "put", "patch"].includes(op.method));
  });

  test("problem responses are application/problem+json with the Problem schema", () => {
    const problem = doc.components.responses.Problem400?.content?.["application/problem+json"]?.schema;
    expect(problem).toEqual({ $ref: "#/components/schemas/Problem" });
    expect(doc.components.schemas.Problem?.required).toEqual(
      expect.arrayContaining(["type", "title", "status", "detail", "code", "errors", "request_id"]),
    );
  });

  test("creating a tenant is documented as 201 with Location, list with the pagination parameters", () => {
    expect(doc.paths["/tenants"]?.post?.responses["201"]?.content?.["application/json"]).toBeDefined();
    const names = operationAt(doc, "GET", "/tenants").parameters.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(["page", "page_size", "cursor"]));
  });

  test("SSO providers show the sign-in fields; the client secret is write-only; Test sign-in is documented", () => {
    const provider = doc.components.schemas.SsoProvider;
    expect(Object.keys(provider?.properties ?? {})).toEqual(
      expect.arrayContaining(["protocol", "sp", "client_id", "client_secret_set", "default_role", "allow_idp_initiated"]),
    );
    expect(provider?.properties?.client_secret).toBeUndefined();
    // An uploaded metadata document is write-only: the provider says where its metadata came from.
    expect(Object.keys(provider?.properties ?? {})).toEqual(expect.arrayContaining(["metadata_url", "metadata_source"]));
    expect(provider?.properties?.metadata_xml).toBeUndefined();
    const create = operationAt(doc, "POST", "/sso").body;
    expect(Object.keys(create?.properties ?? {})).toEqual(
      expect.arrayContaining(["client_id", "client_secret", "default_role", "allow_idp_initiated", "metadata_url", "metadata_xml"]),
    );
    expect(create?.required ?? []).not.toContain("metadata_url");
    expect(doc.paths["/tenants/{tenant_id}/sso/{provider_id}/test-signin"]?.post?.responses["200"]).toBeDefined();
    expect(doc.paths["/tenants/{tenant_id}/sso/{provider_id}/test-signin/{request_id}"]?.get?.responses["200"]).toBeDefined();
  });

  test("the OAuth broker's endpoints are documented outside /api/v1, with the profile and RFC 6749 errors", () => {
    for (const [path, method] of [
      ["/api/sso/authorize", "get"],
      ["/api/sso/token", "post"],
      ["/api/sso/profile", "get"],
    ] as const) {
      expect(doc.paths[path]?.servers).toEqual([{ url: api.url }]);
      expect(doc.paths[path]?.[method]?.responses).toBeDefined();
    }
    expect(doc.paths["/api/sso/token"]?.post?.requestBody?.content["application/x-www-form-urlencoded"]?.schema?.required).toEqual([
      "grant_type",
      "code",
      "redirect_uri",
      "code_verifier",
    ]);
    expect(Object.keys(doc.components.schemas.BrokerProfile?.properties ?? {})).toEqual([
      "id",
      "email",
      "first_name",
      "last_name",
      "groups",
      "idp_id",
      "issuer",
      "tenant_id",
      "provider_id",
      "provider_type",
      "protocol",
      "raw_attributes",
      "directory_user_id",
    ]);
    expect(doc.paths["/sso/applications"]?.post?.responses["201"]).toBeDefined();
    expect(doc.paths["/sso/applications/{application_id}/rotate-secret"]?.post?.responses["200"]).toBeDefined();
  });

  test("the SCIM endpoint is documented outside /api/v1, and every operation it documents answers as documented", async () => {
    const tenant = await createTenant();
    const dir = await createTestDirectory(tenant.id);
    const scimPaths = Object.keys(doc.paths).filter((path) => path.startsWith("/api/scim/v2/"));
    expect(scimPaths.sort()).toEqual(
      ["Groups", "Groups/{id}", "ResourceTypes", "Schemas", "ServiceProviderConfig", "Users", "Users/{id}"].map(
        (rest) => `/api/scim/v2/{directory_id}/${rest}`,
      ),
    );
    const send = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${api.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${dir.token}`, "content-type": "application/scim+json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, json: (await res.json().catch(() => null)) as { id?: string } | null };
    };
    const made = {
      Users: (
        await send("POST", `/api/scim/v2/${dir.id}/Users`, {
          schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
          userName: "doc@example.com",
        })
      ).json!.id!,
      Groups: (
        await send("POST", `/api/scim/v2/${dir.id}/Groups`, {
          schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"],
          displayName: "Doc",
        })
      ).json!.id!,
    };
    const bodies: Record<string, unknown> = {
      "post Users": { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: "doc2@example.com" },
      "post Groups": { schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"], displayName: "Doc 2" },
      "put Users": { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: "doc@example.com", active: true },
      "put Groups": { schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"], displayName: "Doc" },
      patch: {
        schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
        Operations: [{ op: "replace", path: "externalId", value: "x" }],
      },
    };
    // Deletes last: the other operations need the resources.
    const order = (method: string) => (method === "delete" ? 1 : 0);
    const calls = scimPaths.flatMap((path) =>
      (["get", "post", "put", "patch", "delete"] as const).filter((m) => doc.paths[path]?.[m]).map((method) => ({ path, method })),
    );
    for (const { path, method } of calls.sort((a, b) => order(a.method) - order(b.method))) {
      const item = doc.paths[path]!;
      expect(item.servers, path).toEqual([{ url: api.url }]);
      const kind = path.includes("/Users") ? "Users" : "Groups";
      const url = path.replace("{directory_id}", dir.id).replace("{id}", made[kind]);
      const body = bodies[`${method} ${kind}`] ?? (method === "patch" ? bodies.patch : undefined);
      const { status } = await send(method.toUpperCase(), url, body);
      const documented = Object.keys(item[method]!.responses).filter((code) => code.startsWith("2"));
      expect(documented, `${method} ${path} answered ${status}`).toContain(String(status));
    }
  });

  test("the webhooks section documents every kind of the event catalog with its payload schema", () => {
    const webhooks = (
      doc as unknown as { webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }> }
    ).webhooks;
    expect(Object.keys(webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    const ref = webhooks["directory_group.user_added"]!.post.requestBody.content["application/json"]!.schema.$ref;
    const schema = doc.components.schemas[ref.replace("#/components/schemas/", "")]!;
    expect(schema.properties!.type).toEqual({ type: "string", const: "directory_group.user_added" });
    expect(schema.properties!.data!.properties!.details!.properties!.directory_user!.properties!.user_name).toEqual({ type: "string" });
    expect(JSON.stringify(schema)).not.toContain("$defs");
    expect(Object.keys(doc.paths["/tenants/{tenant_id}/events"]!.get!.responses)).toContain("410");
  });
});
