/**
 * What acted, in words (server/audit/actors.ts): the list, one event and the platform search say
 * `actor.name` (a setup link's intent and creator, a directory's name, a user's email) and, for an
 * appended event, `source_token_name`; looked up once per page, within the event's tenant.
 */
import { randomBytes } from "node:crypto";
import { beforeAll, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, createUser, db, operator, tenantWithMembers } from "../support/fixtures.ts";
import { database } from "../../server/db/client.ts";
import type { SqlRunner } from "../../server/db/sql.ts";
import { emitEvent } from "../support/events.ts";
import { listEvents } from "../../server/audit/service.ts";
import { pageRequest } from "../../server/contract/pagination.ts";

const api = apiServer();

let world: Awaited<ReturnType<typeof tenantWithMembers>>;
let base: string;
const ids: Record<string, string> = {};
let linkId: string;
let directoryId: string;
let creatorEmail: string;
let tokenId: string;

beforeAll(async () => {
  world = await tenantWithMembers();
  base = `/api/v1/tenants/${world.tenant.id}/audit`;
  const prisma = await db();
  const creator = await createUser();
  creatorEmail = creator.email;
  const other = await tenantWithMembers();
  linkId = (
    await prisma.setupLink.create({
      data: {
        tenantId: world.tenant.id,
        intent: "directory_sync",
        tokenHash: randomBytes(16).toString("hex"),
        expiresAt: new Date(Date.now() + 86_400_000),
        createdById: creator.id,
      },
    })
  ).id;
  const directory = (name: string, tenantId: string) =>
    prisma.directory.create({ data: { tenantId, name, tokenHash: randomBytes(16).toString("hex"), tokenHint: "abcd" } });
  directoryId = (await directory("Okta EU", world.tenant.id)).id;
  const elsewhere = (await directory("Secret Corp directory", other.tenant.id)).id;
  const person = await createUser();

  const { sql } = await database();
  const seed: Array<[string, string, string | null]> = [
    ["link", `setup_link:${linkId}`, null],
    ["directory", `directory:${directoryId}`, null],
    ["elsewhere", `directory:${elsewhere}`, null],
    ["person", person.id, null],
    ["app", "crm-7", "someone@example.com"],
    ["bare", "crm-8", null],
  ];
  for (const [key, actorId, email] of seed) {
    ids[key] = (
      await emitEvent(sql, { id: actorId, email, ip: null, userAgent: null }, { type: "app.thing", tenantId: world.tenant.id })
    ).id;
  }
  ids.person_email = person.email;
  // Appended through the API with the admin's token, which is then named.
  const appended = await client(api.url, world.admin.token).post(base, { event_type: "app.sync", actor: { id: "job-1" } });
  expect(appended.status, appended.text).toBe(201);
  ids.appended = appended.json.id;
  tokenId = appended.json.source.token_id;
  await prisma.apiToken.update({ where: { id: tokenId }, data: { name: "CI pipeline" } });
});

const named = (results: Array<{ id: string; actor: { name: string | null } }>) =>
  Object.fromEntries(Object.entries(ids).map(([key, id]) => [key, results.find((e) => e.id === id)?.actor.name]));

test("the list names what acted: setup link (intent, creator), directory, user; another tenant's directory stays unnamed", async () => {
  const res = await client(api.url, world.viewer.token).get(`${base}?page_size=50`);
  expect(res.status, res.text).toBe(200);
  const names = named(res.json.results);
  expect(names).toMatchObject({
    link: `Directory Sync setup link by ${creatorEmail}`,
    directory: "Directory Okta EU",
    elsewhere: "Directory (deleted)",
    person: ids.person_email,
    app: "someone@example.com",
    bare: null,
  });
  const appended = res.json.results.find((e: { id: string }) => e.id === ids.appended);
  expect(appended.source_token_name).toBe("CI pipeline");
  expect(JSON.stringify(res.json)).not.toContain("Secret Corp");
});

test("one event and the platform search say the same", async () => {
  const one = await client(api.url, world.viewer.token).get(`${base}/${ids.link}`);
  expect(one.json.actor).toEqual({ id: `setup_link:${linkId}`, email: null, name: `Directory Sync setup link by ${creatorEmail}` });
  const op = await operator();
  const found = await client(api.url, op.token).get(`/api/v1/audit?actor_id=directory:${directoryId}`);
  expect(found.status, found.text).toBe(200);
  expect(found.json.results[0].actor.name).toBe("Directory Okta EU");
  expect(found.json.results[0].tenant_name).toBe(world.tenant.name);
});

test("a page's actors are looked up in one statement, not one per row", async () => {
  const { sql, ...rest } = await database();
  const statements: string[] = [];
  const counting: SqlRunner = {
    ...sql,
    query: (text, params, options) => {
      statements.push(text);
      return sql.query(text, params, options);
    },
  };
  const page = await listEvents(
    {
      db: { ...rest, sql: counting },
      actor: {
        principal: { userId: world.viewer.user.id, email: "", platformRole: null, via: "token", token: null, sessionId: null },
        request: { requestId: "t", ip: null, userAgent: null },
      },
      tenantId: world.tenant.id,
    },
    { page: pageRequest({ page_size: 50 }) },
  );
  expect(page.items.length).toBeGreaterThanOrEqual(7);
  expect(statements.filter((s) => /FROM setup_links/.test(s))).toHaveLength(1);
  expect(statements.filter((s) => /FROM (directories|api_tokens|users)\b/.test(s) && !/FROM setup_links/.test(s))).toHaveLength(0);
});
