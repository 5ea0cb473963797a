/**
 * SCIM filters run as SQL on real Postgres (and on PGlite, which the app uses without DATABASE_URL):
 * fixed cases, the index seeks, memberships. The property tests against oracles are in
 * directories-scim-filter-sql-property.test.ts.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { database, openPglite } from "../../server/db/client.ts";
import { migratedPgliteDir } from "../support/pglite-template.ts";
import type { SqlStatements } from "../../server/db/sql.ts";
import { parseFilter } from "../../server/directories/scim/filter.ts";
import { filterToSql } from "../../server/directories/scim/filter-sql.ts";
import { ENTERPRISE_USER } from "../../server/directories/scim/schema.ts";
import { createTenant } from "../support/fixtures.ts";
import { insertUsers as seedUsers, matching, newDirectory as seedDirectory, seed, type Seed } from "../support/scim-seed.ts";

let tenantId = "";
let sql: SqlStatements;
beforeAll(async () => {
  tenantId = (await createTenant()).id;
  sql = (await database()).sql;
});
const newDirectory = (runner: SqlStatements, tenant = tenantId) => seedDirectory(runner, tenant);
const insertUsers = (runner: SqlStatements, directoryId: string, seeds: Seed[], tenant = tenantId) =>
  seedUsers(runner, directoryId, seeds, tenant);

describe("fixed filters", () => {
  let dir = "";
  let ids: string[] = [];
  const users = [
    seed(
      "bjensen@example.com",
      {
        schemas: ["urn:ietf:params:scim:schemas:core:2.0:User", ENTERPRISE_USER],
        name: { givenName: "Barbara", familyName: "Jensen" },
        title: "Tour Guide",
        userType: "Employee",
        emails: [
          { value: "bjensen@example.com", type: "work", primary: true },
          { value: "babs@jensen.org", type: "home" },
        ],
        [ENTERPRISE_USER]: { department: "Tour Operations", manager: { value: "m-1" } },
      },
      { externalId: "Ext-1" },
    ),
    seed(
      "jsmith@example.org",
      { name: { givenName: "John", familyName: "Smith" }, emails: [{ value: "JS@work.example.com", type: "work" }] },
      { active: false },
    ),
    seed("nobody", { title: "" }),
  ];
  const find = (text: string) => matching(sql, "User", dir, text);
  const names = async (text: string) => (await find(text)).map((id) => users[ids.indexOf(id)]!.userName).sort();

  beforeAll(async () => {
    dir = await newDirectory(sql);
    ids = await insertUsers(sql, dir, users);
  });

  test.each([
    ['userName eq "BJENSEN@example.com"', ["bjensen@example.com"]],
    ['name.familyName co "ens"', ["bjensen@example.com"]],
    ['userName sw "J"', ["jsmith@example.org"]],
    ['urn:ietf:params:scim:schemas:core:2.0:User:userName sw "j"', ["jsmith@example.org"]],
    ["title pr", ["bjensen@example.com"]],
    ['schemas eq "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"', ["bjensen@example.com"]],
    ['title pr and userType eq "Employee"', ["bjensen@example.com"]],
    ['title pr or userType eq "Intern"', ["bjensen@example.com"]],
    ['userType eq "Employee" and (emails co "example.com" or emails.value co "example.org")', ["bjensen@example.com"]],
    ['userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")', ["nobody"]],
    ['userType eq "Employee" and (emails.type eq "work")', ["bjensen@example.com"]],
    ['userType eq "Employee" and emails[type eq "work" and value co "@example.com"]', ["bjensen@example.com"]],
    ['emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]', ["bjensen@example.com"]],
    ['emails[type eq "home"].value ew ".ORG"', ["bjensen@example.com"]],
    ['emails[type eq "home"].value ew ".com"', []],
    ["emails[not (primary eq true)]", ["bjensen@example.com", "jsmith@example.org"]],
    ['externalId eq "ext-1"', []],
    ['externalId eq "Ext-1"', ["bjensen@example.com"]],
    ['externalId ne "Ext-1"', ["jsmith@example.org", "nobody"]],
    ["active eq false", ["jsmith@example.org"]],
    ['active eq "True"', ["bjensen@example.com", "nobody"]],
    ['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department eq "tour operations"', ["bjensen@example.com"]],
    ['URN:IETF:PARAMS:SCIM:SCHEMAS:EXTENSION:ENTERPRISE:2.0:USER:MANAGER.VALUE eq "M-1"', ["bjensen@example.com"]],
    ['NAME.GIVENNAME Gt "C" AnD not (name.givenName GE "k")', ["jsmith@example.org"]],
    ['name.givenName lt "c"', ["bjensen@example.com"]],
    [
      'meta.created gt "2000-01-01T00:00:00Z" and meta.lastModified lt "2999-01-01T00:00:00Z"',
      ["bjensen@example.com", "jsmith@example.org", "nobody"],
    ],
    ['meta.resourceType eq "User" and userName eq "nobody"', ["nobody"]],
    ["nickName eq null", ["bjensen@example.com", "jsmith@example.org", "nobody"]],
    ['customThing eq "x" or not (customThing pr)', ["bjensen@example.com", "jsmith@example.org", "nobody"]],
    ['emails ne "js@work.example.com"', ["bjensen@example.com", "nobody"]],
    ['userName eq "x\' OR 1=1 --"', []],
  ])("%s", async (text, expected) => {
    expect(await names(text)).toEqual(expected);
  });

  test("comparing a boolean with gt, or an unfilterable attribute, is a 400 invalidFilter", () => {
    for (const text of ["active gt true", 'meta.location eq "x"', 'name eq "x"', 'userName.foo eq "x"', "userName eq 1"]) {
      expect(() => filterToSql("User", parseFilter(text), []), text).toThrow(
        expect.objectContaining({ status: 400, scimType: "invalidFilter" }),
      );
    }
  });

  test("id eq: case-exact, on the uuid column", async () => {
    const id = ids[0]!;
    expect(await find(`id eq "${id}"`)).toEqual([id]);
    expect(await find(`id eq "${id.toUpperCase()}"`)).toEqual([]);
    expect(await find(`id ne "${id}"`)).toHaveLength(2);
    expect(await find(`id sw "${id.slice(0, 8)}"`)).toEqual([id]);
    const params: unknown[] = [dir];
    const where = filterToSql("User", parseFilter(`id eq "${id}"`), params);
    // The uuid column itself, not its text: the primary key's index applies.
    expect(where).toBe("r.id = $2::uuid");
  });

  test("userName eq is an index seek on (directory_id, user_name_lower)", async () => {
    const big = await newDirectory(sql);
    await sql.query(
      `INSERT INTO directory_users (directory_id, tenant_id, user_name, external_id, resource)
       SELECT $1, $2, 'user' || i || '@example.com', 'ext-' || (i % 10), '{}' FROM generate_series(1, 20000) i`,
      [big, tenantId],
    );
    await sql.query("ANALYZE directory_users");
    const params: unknown[] = [big];
    const where = filterToSql("User", parseFilter('userName eq "USER77@example.com"'), params);
    const plan = await sql.query<{ "QUERY PLAN": string }>(
      `EXPLAIN SELECT r.id FROM directory_users r WHERE r.directory_id = $1 AND ${where}`,
      params,
    );
    const text = plan.map((row) => row["QUERY PLAN"]).join("\n");
    expect(text).toContain("directory_users_directory_id_user_name_lower_key");
    expect(text).toMatch(/Index Cond: .*user_name_lower = /);
  });

  test("an email's or a name's equality (emails.value, emails[… value eq …], name.familyName) probes an index", async () => {
    const big = await newDirectory(sql);
    await sql.query(
      `INSERT INTO directory_users (directory_id, tenant_id, user_name, family_name, resource)
       SELECT $1, $2, 'user' || i || '@example.com', 'Family' || i,
              jsonb_build_object('emails', jsonb_build_array(jsonb_build_object('value', 'User' || i || '@Example.com', 'type', 'work')),
                                 'name', jsonb_build_object('familyName', 'Family' || i))
       FROM generate_series(1, 20000) i`,
      [big, tenantId],
    );
    await sql.query("ANALYZE directory_users");
    for (const [filter, index] of <[string, string][]>[
      ['emails.value eq "user77@example.COM"', "directory_users_email_values_idx"],
      ['emails[type eq "work" and value eq "USER77@example.com"]', "directory_users_email_values_idx"],
      ['name.familyName eq "family77"', "directory_users_directory_id_lower_family_name_idx"],
    ]) {
      const params: unknown[] = [big];
      const where = filterToSql("User", parseFilter(filter), params);
      const plan = await sql.query<{ "QUERY PLAN": string }>(
        `EXPLAIN SELECT r.id FROM directory_users r WHERE r.directory_id = $1 AND ${where}`,
        params,
      );
      expect(plan.map((row) => row["QUERY PLAN"]).join("\n"), filter).toContain(index);
      const found = await sql.query<{ user_name: string }>(
        `SELECT r.user_name FROM directory_users r WHERE r.directory_id = $1 AND ${where}`,
        params,
      );
      expect(found.map((row) => row.user_name)).toEqual(["user77@example.com"]);
    }
  });
});

describe("memberships", () => {
  test("Group members[value eq], members.value, displayName; User groups.value", async () => {
    const dir = await newDirectory(sql);
    const [alice, bob] = await insertUsers(sql, dir, [seed("alice"), seed("bob")]);
    const groups = await sql.query<{ id: string }>(
      `INSERT INTO directory_groups (directory_id, tenant_id, display_name, resource)
       VALUES ($1, $2, 'Engineering', '{}'), ($1, $2, 'Sales', '{}') RETURNING id`,
      [dir, tenantId],
    );
    const [eng, sales] = groups.map((row) => row.id);
    await sql.query(
      `INSERT INTO directory_group_members (group_id, user_id, directory_id) VALUES ($1, $2, $4), ($1, $3, $4), ($5, $3, $4)`,
      [eng, alice, bob, dir, sales],
    );
    expect(await matching(sql, "Group", dir, `members[value eq "${alice}"]`)).toEqual([eng]);
    expect(await matching(sql, "Group", dir, `members.value eq "${bob}"`)).toEqual([eng, sales].sort());
    expect(await matching(sql, "Group", dir, `displayName eq "engineering" and members pr`)).toEqual([eng]);
    expect(await matching(sql, "Group", dir, `members eq "not-a-uuid"`)).toEqual([]);
    expect(await matching(sql, "User", dir, `groups.value eq "${sales}"`)).toEqual([bob]);
    expect(await matching(sql, "User", dir, `groups[display eq "ENGINEERING"] and not (groups.value eq "${sales}")`)).toEqual([alice]);
  });
});

describe("PGlite", () => {
  let dir = "";
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("runs the same SQL", { timeout: 120_000 }, async () => {
    dir = await migratedPgliteDir("scim-pglite-");
    const lite = await openPglite(dir);
    try {
      const [tenant] = await lite.sql.query<{ id: string }>(`INSERT INTO tenants (name) VALUES ('lite') RETURNING id`);
      const directory = await newDirectory(lite.sql, tenant!.id);
      const ids = await insertUsers(lite.sql, directory, [...fixedPopulation()], tenant!.id);
      const text =
        'userName eq "A" or (emails[type eq "work" and not (value co "x")] and name.familyName pr) or meta.created lt "2000-01-01T00:00:00Z"';
      const found = await matching(lite.sql, "User", directory, text);
      expect(found).toEqual([ids[0], ids[1]].sort());
    } finally {
      await lite.close();
    }
  });
});

function* fixedPopulation(): Generator<Seed> {
  yield seed("a");
  yield seed("b", { name: { familyName: "F" }, emails: [{ value: "b@y", type: "work" }] });
  yield seed("c", { name: { familyName: "F" }, emails: [{ value: "c@x", type: "work" }] });
}
