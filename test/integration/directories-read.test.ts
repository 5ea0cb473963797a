/**
 * The read API of a directory's data (users, groups, the sync activity) over real HTTP, with rows
 * written straight into the tables as the SCIM endpoint would leave them, and the sync activity's
 * 30-day retention job.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, db, tenantWithMembers } from "../support/fixtures.ts";
import { database } from "../../server/db/client.ts";
import { loadJobs } from "../../server/app/features.ts";
import { purgeOldScimRequests } from "../../server/directories/jobs.ts";
import { ENTERPRISE_USER } from "../../server/directories/present.ts";

const api = apiServer();
const DAY = 86_400_000;

async function directoryWith() {
  const { tenant, admin, viewer } = await tenantWithMembers();
  const adminClient = client(api.url, admin.token);
  expect((await adminClient.post("/api/v1/auth/step-up", { password: "admin-password" })).status).toBe(200);
  const res = await adminClient.post(`/api/v1/tenants/${tenant.id}/directories`, { name: "Entra", provider: "entra_id" });
  expect(res.status).toBe(201);
  const one = `/api/v1/tenants/${tenant.id}/directories/${res.json.id}`;
  return { tenant, directoryId: res.json.id as string, one, admin: adminClient, viewer: client(api.url, viewer.token) };
}

let clock = Date.parse("2026-11-01T00:00:00Z");
/** Distinct, increasing creation times: the lists are newest first. */
const nextTime = () => new Date((clock += 1000));

interface UserSeed {
  userName: string;
  given?: string;
  family?: string;
  emails?: { value: string; type?: string; primary?: boolean }[];
  active?: boolean;
  externalId?: string;
  department?: string;
}

async function addUser(directoryId: string, tenantId: string, seed: UserSeed) {
  const emails = seed.emails ?? [{ value: seed.userName, type: "work", primary: true }];
  const resource: Record<string, unknown> = {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
    userName: seed.userName,
    name: { givenName: seed.given, familyName: seed.family },
    emails,
    active: seed.active ?? true,
    ...(seed.externalId ? { externalId: seed.externalId } : {}),
    ...(seed.department ? { [ENTERPRISE_USER]: { department: seed.department } } : {}),
  };
  const at = nextTime();
  return (await db()).directoryUser.create({
    data: {
      directoryId,
      tenantId,
      userName: seed.userName,
      externalId: seed.externalId ?? null,
      active: seed.active ?? true,
      givenName: seed.given ?? null,
      familyName: seed.family ?? null,
      primaryEmail: (emails.find((e) => e.primary) ?? emails[0])?.value.toLowerCase() ?? null,
      resource: resource as object,
      createdAt: at,
      updatedAt: at,
    },
  });
}

async function addGroup(directoryId: string, tenantId: string, name: string, memberIds: string[], externalId?: string) {
  const prisma = await db();
  const at = nextTime();
  const group = await prisma.directoryGroup.create({
    data: {
      directoryId,
      tenantId,
      displayName: name,
      externalId: externalId ?? null,
      resource: { displayName: name },
      createdAt: at,
      updatedAt: at,
    },
  });
  if (memberIds.length)
    await prisma.directoryGroupMember.createMany({ data: memberIds.map((userId) => ({ groupId: group.id, userId, directoryId })) });
  return group;
}

/** A directory with four people and two groups. */
async function seeded() {
  const ctx = await directoryWith();
  const { directoryId, tenant } = ctx;
  const ada = await addUser(directoryId, tenant.id, {
    userName: "Ada.Lovelace@Example.com",
    given: "Ada",
    family: "Lovelace",
    externalId: "00u-ada",
    department: "Engineering",
    emails: [
      { value: "Ada.Lovelace@Example.com", type: "work", primary: true },
      { value: "ada@analytical.engine", type: "home" },
    ],
  });
  const grace = await addUser(directoryId, tenant.id, { userName: "grace@example.com", given: "Grace", family: "Hopper" });
  const alan = await addUser(directoryId, tenant.id, { userName: "alan@example.com", given: "Alan", family: "Turing", active: false });
  const percent = await addUser(directoryId, tenant.id, { userName: "100%club@example.com", given: "Per", family: "Cent" });
  const engineering = await addGroup(directoryId, tenant.id, "Engineering", [ada.id, grace.id], "grp-eng");
  const admins = await addGroup(directoryId, tenant.id, "Admins", [ada.id]);
  return { ...ctx, users: { ada, grace, alan, percent }, groups: { engineering, admins } };
}

const names = (res: { json: { results: { user_name?: string; name?: string }[] } }) =>
  res.json.results.map((item) => item.user_name ?? item.name);

describe("directory users", () => {
  test("a user as the read API shows it: emails, names, state, groups, role, custom and raw attributes", async () => {
    const { one, viewer, users, groups, directoryId } = await seeded();
    const res = await viewer.get(`${one}/users/${users.ada.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      id: users.ada.id,
      directory_id: directoryId,
      idp_id: "00u-ada",
      user_name: "Ada.Lovelace@Example.com",
      emails: [
        { value: "Ada.Lovelace@Example.com", type: "work", primary: true },
        { value: "ada@analytical.engine", type: "home", primary: false },
      ],
      first_name: "Ada",
      last_name: "Lovelace",
      state: "active",
      groups: [
        { id: groups.admins.id, name: "Admins" },
        { id: groups.engineering.id, name: "Engineering" },
      ],
      role: null,
      user_id: null,
      custom_attributes: { department: "Engineering" },
    });
    expect(res.json.raw_attributes).toMatchObject({
      userName: "Ada.Lovelace@Example.com",
      [`${"urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"}`]: { department: "Engineering" },
    });
    expect((await viewer.get(`${one}/users/${users.alan.id}`)).json.state).toBe("inactive");
  });

  test("the list is newest first with each user's groups; the directory counts its users and groups", async () => {
    const { one, viewer } = await seeded();
    const res = await viewer.get(`${one}/users`);
    expect(res.status).toBe(200);
    expect(res.json.count).toBe(4);
    expect(names(res)).toEqual(["100%club@example.com", "alan@example.com", "grace@example.com", "Ada.Lovelace@Example.com"]);
    expect(res.json.results[2].groups.map((g: { name: string }) => g.name)).toEqual(["Engineering"]);
    expect((await viewer.get(one)).json).toMatchObject({ user_count: 4, group_count: 2 });
  });

  test("pages by page and by cursor, each link keeping the filters", async () => {
    const { one, viewer } = await seeded();
    const first = await viewer.get(`${one}/users?page_size=3&state=active`);
    expect(first.json.count).toBe(3);
    expect(names(first)).toEqual(["100%club@example.com", "grace@example.com", "Ada.Lovelace@Example.com"]);
    expect(first.json.next).toBeNull();
    const small = await viewer.get(`${one}/users?page_size=2`);
    expect(names(small)).toEqual(["100%club@example.com", "alan@example.com"]);
    expect(small.json.next).toContain("page=2");
    const next = await viewer.get(new URL(small.json.next).pathname + new URL(small.json.next).search);
    expect(names(next)).toEqual(["grace@example.com", "Ada.Lovelace@Example.com"]);
    const byCursor = await viewer.get(`${one}/users?page_size=2&cursor=${small.json.next_cursor}`);
    expect(names(byCursor)).toEqual(["grace@example.com", "Ada.Lovelace@Example.com"]);
    const back = await viewer.get(`${one}/users?page_size=2&cursor=${byCursor.json.previous_cursor}`);
    expect(names(back)).toEqual(["100%club@example.com", "alan@example.com"]);
  });

  test.each([
    ["state=inactive", ["alan@example.com"]],
    ["state=active", ["100%club@example.com", "grace@example.com", "Ada.Lovelace@Example.com"]],
    ["search=LOVELACE", ["Ada.Lovelace@Example.com"]],
    ["search=ada.lovelace%40example", ["Ada.Lovelace@Example.com"]],
    ["search=analytical", ["Ada.Lovelace@Example.com"]],
    ["search=grace", ["grace@example.com"]],
    ["search=hopp", ["grace@example.com"]],
    ["search=TURING", ["alan@example.com"]],
    ["search=100%25", ["100%club@example.com"]],
    ["search=0_c", []],
    ["search=nobody", []],
    ["search=%20", ["100%club@example.com", "alan@example.com", "grace@example.com", "Ada.Lovelace@Example.com"]],
    ["search=example.com&state=inactive", ["alan@example.com"]],
  ])("%s", async (query, expected) => {
    const { one, viewer } = await seeded();
    const res = await viewer.get(`${one}/users?${query}`);
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(expected);
    expect(res.json.count).toBe(expected.length);
  });

  test("group_id keeps that group's members; an unknown or malformed group matches no one; bad state is a 400", async () => {
    const { one, viewer, groups, users } = await seeded();
    expect(names(await viewer.get(`${one}/users?group_id=${groups.engineering.id}`))).toEqual([
      "grace@example.com",
      "Ada.Lovelace@Example.com",
    ]);
    expect(names(await viewer.get(`${one}/users?group_id=${groups.admins.id}&search=ada`))).toEqual(["Ada.Lovelace@Example.com"]);
    expect(names(await viewer.get(`${one}/users?group_id=${users.ada.id}`))).toEqual([]);
    const malformed = await viewer.get(`${one}/users?group_id=eng`);
    expect(malformed.status, malformed.text).toBe(200);
    expect(names(malformed)).toEqual([]);
    expect((await viewer.get(`${one}/users?search=${users.grace.id}`)).json.results.map((u: { id: string }) => u.id)).toEqual([
      users.grace.id,
    ]);
    const bad = await viewer.get(`${one}/users?state=deleted`);
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].path).toBe("state");
  });

  test("another directory's user, even in the same tenant, is a 404", async () => {
    const a = await seeded();
    const other = await a.admin.post(`/api/v1/tenants/${a.tenant.id}/directories`, { name: "Second" });
    const path = `/api/v1/tenants/${a.tenant.id}/directories/${other.json.id}`;
    expect((await a.viewer.get(`${path}/users/${a.users.ada.id}`)).status).toBe(404);
    expect((await a.viewer.get(`${path}/groups/${a.groups.admins.id}`)).status).toBe(404);
    expect((await a.viewer.get(`${path}/users?group_id=${a.groups.admins.id}`)).json.results).toEqual([]);
    expect((await a.viewer.get(`${a.one}/users/not-a-uuid`)).status).toBe(404);
  });
});

describe("directory groups", () => {
  test("newest first with their user counts; search by name any case or by id; get one", async () => {
    const { one, viewer, groups, directoryId } = await seeded();
    const res = await viewer.get(`${one}/groups`);
    expect(res.status).toBe(200);
    expect(res.json.results).toMatchObject([
      { id: groups.admins.id, name: "Admins", user_count: 1, idp_id: null, directory_id: directoryId },
      { id: groups.engineering.id, name: "Engineering", user_count: 2, idp_id: "grp-eng" },
    ]);
    expect(names(await viewer.get(`${one}/groups?search=ENGIN`))).toEqual(["Engineering"]);
    expect(names(await viewer.get(`${one}/groups?search=${groups.admins.id}`))).toEqual(["Admins"]);
    expect(names(await viewer.get(`${one}/groups?search=x`))).toEqual([]);
    const page = await viewer.get(`${one}/groups?page_size=1`);
    expect(page.json).toMatchObject({ count: 2, results: [{ name: "Admins" }] });
    expect(names(await viewer.get(`${one}/groups?page_size=1&cursor=${page.json.next_cursor}`))).toEqual(["Engineering"]);
    const got = await viewer.get(`${one}/groups/${groups.engineering.id}`);
    expect(got.json).toMatchObject({ id: groups.engineering.id, name: "Engineering", user_count: 2 });
    expect(Object.keys(got.json).sort()).toEqual(["created_at", "directory_id", "id", "idp_id", "name", "updated_at", "user_count"]);
    expect((await viewer.get(`${one}/groups/${crypto.randomUUID()}`)).status).toBe(404);
  });
});

describe("sync activity", () => {
  async function withRequests() {
    const ctx = await directoryWith();
    const prisma = await db();
    const at = new Date();
    const rows = [
      { method: "GET", path: '/Users?filter=userName eq "a@example.com"', status: 200, summary: "list Users: 0 of 0" },
      { method: "POST", path: "/Users", status: 201, summary: "created User a@example.com" },
      { method: "POST", path: "/Users", status: 409, summary: "userName a@example.com is taken", scimType: "uniqueness" },
      { method: "PATCH", path: "/Groups/1", status: 400, summary: "bad path", scimType: "invalidPath" },
      { method: "DELETE", path: "/Users/2", status: 204, summary: "deleted User" },
    ];
    // Two of them at the same instant: the order then follows the log's sequence.
    const times = [-4000, -3000, -2000, -2000, -1000].map((offset) => new Date(at.getTime() + offset));
    for (const [i, row] of rows.entries()) {
      await prisma.scimRequest.create({
        data: { directoryId: ctx.directoryId, durationMs: 3 + i, scimType: null, ...row, createdAt: times[i]! },
      });
    }
    return ctx;
  }

  test("newest first; failed=true keeps only 4xx and 5xx; failed=false the others; admins only", async () => {
    const { one, admin, viewer } = await withRequests();
    const res = await admin.get(`${one}/requests`);
    expect(res.status).toBe(200);
    expect(res.json.results.map((r: { status: number }) => r.status)).toEqual([204, 400, 409, 201, 200]);
    expect(res.json.results[1]).toMatchObject({
      method: "PATCH",
      path: "/Groups/1",
      status: 400,
      summary: "bad path",
      scim_type: "invalidPath",
      duration_ms: 6,
    });
    expect(typeof res.json.results[1].id).toBe("string");
    const failed = await admin.get(`${one}/requests?failed=true`);
    expect(failed.json).toMatchObject({ count: 2, results: [{ status: 400 }, { status: 409 }] });
    expect((await admin.get(`${one}/requests?failed=false`)).json.results.map((r: { status: number }) => r.status)).toEqual([
      204, 201, 200,
    ]);
    expect((await admin.get(`${one}/requests?failed=yes`)).status).toBe(400);
    expect((await viewer.get(`${one}/requests`)).status).toBe(403);
  });

  test("pages through requests of the same instant by cursor, both ways", async () => {
    const { one, admin } = await withRequests();
    const statuses = (res: { json: { results: { status: number }[] } }) => res.json.results.map((r) => r.status);
    const first = await admin.get(`${one}/requests?page_size=2`);
    expect(statuses(first)).toEqual([204, 400]);
    const second = await admin.get(`${one}/requests?page_size=2&cursor=${first.json.next_cursor}`);
    expect(statuses(second)).toEqual([409, 201]);
    const third = await admin.get(`${one}/requests?page_size=2&cursor=${second.json.next_cursor}`);
    expect(statuses(third)).toEqual([200]);
    expect(third.json.next_cursor).toBeNull();
    const back = await admin.get(`${one}/requests?page_size=2&cursor=${second.json.previous_cursor}`);
    expect(statuses(back)).toEqual([204, 400]);
  });

  test("requests older than 30 days are purged by the directories job; newer ones stay", async () => {
    const { directoryId } = await directoryWith();
    const prisma = await db();
    const now = Date.now();
    for (const days of [45, 31, 29, 1]) {
      await prisma.scimRequest.create({
        data: {
          directoryId,
          method: "GET",
          path: "/Users",
          status: 200,
          durationMs: 1,
          summary: `${days} days`,
          createdAt: new Date(now - days * DAY),
        },
      });
    }
    expect(await purgeOldScimRequests((await database()).sql)).toBeGreaterThanOrEqual(2);
    const left = await prisma.scimRequest.findMany({ where: { directoryId }, orderBy: { createdAt: "asc" } });
    expect(left.map((r) => r.summary)).toEqual(["29 days", "1 days"]);

    const job = (await loadJobs()).find((j) => j.name === "directories.scim_requests_purge");
    expect(job).toBeDefined();
    await prisma.scimRequest.create({
      data: { directoryId, method: "GET", path: "/Users", status: 200, durationMs: 1, summary: "old", createdAt: new Date(now - 31 * DAY) },
    });
    expect(await job!.run(await database(), { budgetMs: 10_000 })).toEqual({ scim_requests_purged: 1 });
  });
});

describe("odd query values against a real directory", () => {
  test("never a 5xx: any search, group_id, state, failed, cursor or page on the lists", { timeout: 60_000 }, async () => {
    const { one, admin, groups } = await seeded();
    const value = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom("%", "_", "\\", "'", '"', "*", "(", "null", groups.admins.id, crypto.randomUUID(), "active", "true", "0", "-1"),
    );
    const query = fc.record(
      { search: value, group_id: value, state: value, failed: value, cursor: value, page: value, page_size: value },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("users", "groups", "requests"), query, async (list, params) => {
        const search = new URLSearchParams(params as Record<string, string>).toString();
        const res = await admin.get(`${one}/${list}?${search}`);
        expect(res.status, `${list}?${search} → ${res.text.slice(0, 200)}`).toBeLessThan(500);
        if (res.status === 200) expect(res.json.results.length).toBeLessThanOrEqual(res.json.count);
      }),
      { seed: 23, numRuns: 150 },
    );
  });
});
