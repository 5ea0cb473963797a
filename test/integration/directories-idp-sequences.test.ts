/**
 * The request sequences Okta and Microsoft Entra ID send to a SCIM 2.0 app, in their documented
 * shapes (Okta: "SCIM 2.0 protocol reference"; Entra: "Tutorial: Develop and plan provisioning for
 * a SCIM endpoint", its request/response examples): find by `userName eq`, create, deactivate,
 * reactivate, group push with members, rename, remove a member, delete.
 */
import { describe, expect, test } from "vitest";
import { apiServer } from "../support/api-server.ts";
import { client, db, tenantWithMembers } from "../support/fixtures.ts";
import { createTestDirectory } from "../support/directories.ts";

const api = apiServer();
const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

async function idp(provider: "okta" | "entra_id", contentType: string) {
  const { tenant } = await tenantWithMembers();
  const dir = await createTestDirectory(tenant.id, { provider });
  const scim = client(api.url, dir.token);
  const headers = { "content-type": contentType, accept: "application/scim+json" };
  const at = (path: string) => `${dir.scimPath}${path}`;
  return {
    dir,
    tenant,
    get: (path: string) => scim.get(at(path), { accept: "application/scim+json" }),
    post: (path: string, body: unknown) => scim.post(at(path), body, headers),
    put: (path: string, body: unknown) => scim.call("PUT", at(path), body, headers),
    patch: (path: string, ops: unknown[]) => scim.patch(at(path), { schemas: [PATCH_OP], Operations: ops }, headers),
    delete: (path: string) => scim.delete(at(path)),
  };
}

const eventTypes = async (tenantId: string) =>
  (await (await db()).auditEvent.findMany({ where: { tenantId }, orderBy: { sequence: "asc" } })).map((e) => e.eventType);

describe("Okta", () => {
  test("user lifecycle and group push, as Okta sends them (application/json)", async () => {
    const okta = await idp("okta", "application/json");
    const q = `/Users?filter=${encodeURIComponent('userName eq "dade.murphy@example.com"')}&startIndex=1&count=100`;
    const none = await okta.get(q);
    expect(none.status).toBe(200);
    expect(none.json).toMatchObject({ totalResults: 0, Resources: [] });

    const created = await okta.post("/Users", {
      schemas: [USER],
      userName: "dade.murphy@example.com",
      name: { givenName: "Dade", familyName: "Murphy" },
      emails: [{ primary: true, value: "dade.murphy@example.com", type: "work" }],
      displayName: "Dade Murphy",
      locale: "en-US",
      externalId: "00ujl29u0le5T6Aj10h7",
      groups: [],
      password: "1mz050nq",
      active: true,
    });
    expect(created.status).toBe(201);
    const id = created.json.id;
    const found = await okta.get(q);
    expect(found.json.totalResults).toBe(1);
    expect(found.json.Resources[0].id).toBe(id);

    // Okta's profile push is a PUT of the whole user.
    const put = await okta.put(`/Users/${id}`, { ...created.json, name: { givenName: "Dade", familyName: "Zero Cool" } });
    expect(put.status).toBe(200);
    expect(put.json.name.familyName).toBe("Zero Cool");

    const off = await okta.patch(`/Users/${id}`, [{ op: "replace", value: { active: false } }]);
    expect(off.status).toBe(200);
    expect(off.json.active).toBe(false);
    const on = await okta.patch(`/Users/${id}`, [{ op: "replace", value: { active: true } }]);
    expect(on.json.active).toBe(true);

    const other = await okta.post("/Users", {
      schemas: [USER],
      userName: "kate.libby@example.com",
      name: { givenName: "Kate", familyName: "Libby" },
      active: true,
    });
    const group = await okta.post("/Groups", { schemas: [GROUP], displayName: "Test SCIMv2", members: [] });
    expect(group.status).toBe(201);
    const gid = group.json.id;
    const add = await okta.patch(`/Groups/${gid}`, [
      {
        op: "add",
        path: "members",
        value: [
          { value: id, display: "dade.murphy@example.com" },
          { value: other.json.id, display: "kate.libby@example.com" },
        ],
      },
    ]);
    expect(add.status).toBe(200);
    expect(add.json.members).toHaveLength(2);
    const renamed = await okta.patch(`/Groups/${gid}`, [{ op: "replace", value: { id: gid, displayName: "Test SCIMv2 renamed" } }]);
    expect(renamed.json.displayName).toBe("Test SCIMv2 renamed");
    const removed = await okta.patch(`/Groups/${gid}`, [{ op: "remove", path: `members[value eq "${other.json.id}"]` }]);
    expect(removed.json.members.map((m: { value: string }) => m.value)).toEqual([id]);
    expect((await okta.delete(`/Groups/${gid}`)).status).toBe(204);
    expect((await okta.delete(`/Users/${id}`)).status).toBe(204);

    expect(await eventTypes(okta.tenant.id)).toEqual([
      "directory_user.created",
      "directory_user.updated",
      "directory_user.deactivated",
      "directory_user.reactivated",
      "directory_user.created",
      "directory_group.created",
      "directory_group.user_added",
      "directory_group.user_added",
      "directory_group.updated",
      "directory_group.user_removed",
      "directory_group.deleted",
      "directory_user.deleted",
    ]);
  });
});

describe("Microsoft Entra ID", () => {
  test('user lifecycle and group push, as Entra sends them (application/scim+json, "False" strings, filtered paths)', async () => {
    const entra = await idp("entra_id", "application/scim+json");
    const q = `/Users?filter=${encodeURIComponent('userName eq "Test_User_dfeef4c5-5681-4387-b016-bdf221e82081"')}`;
    expect((await entra.get(q)).json.totalResults).toBe(0);
    const created = await entra.post("/Users", {
      schemas: [USER, ENTERPRISE],
      externalId: "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef",
      userName: "Test_User_dfeef4c5-5681-4387-b016-bdf221e82081",
      active: true,
      addresses: [
        {
          primary: true,
          type: "work",
          country: "US",
          locality: "Redmond",
          postalCode: "98052",
          region: "WA",
          streetAddress: "1 Microsoft Way",
        },
      ],
      displayName: "Test User",
      emails: [{ primary: true, type: "work", value: "Test_User_11bb6a5c@testuser.com" }],
      meta: { resourceType: "User" },
      name: { formatted: "testFormattedName", familyName: "testFamilyName", givenName: "testGivenName" },
      title: "Tester",
      [ENTERPRISE]: { employeeNumber: "1234", department: "Engineering" },
    });
    expect(created.status).toBe(201);
    const id = created.json.id;
    expect((await entra.get(q)).json.Resources[0].id).toBe(id);
    const byExternal = await entra.get(`/Users?filter=${encodeURIComponent('externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"')}`);
    expect(byExternal.json.totalResults).toBe(1);

    // A directory made for Entra ID answers PATCH with 204 and the ETag, as Microsoft's reference server does.
    const patched = await entra.patch(`/Users/${id}`, [
      { op: "Replace", path: "displayName", value: "Tester Renamed" },
      { op: "Add", path: 'emails[type eq "work"].value', value: "renamed@testuser.com" },
      { op: "Replace", path: `${ENTERPRISE}:department`, value: "Sales" },
    ]);
    expect(patched.status).toBe(204);
    expect(patched.headers.get("etag")).toBe('W/"2"');
    const updated = await entra.get(`/Users/${id}`);
    expect(updated.json.displayName).toBe("Tester Renamed");
    expect(updated.json[ENTERPRISE].department).toBe("Sales");
    const row = await (await db()).directoryUser.findUniqueOrThrow({ where: { id } });
    expect(row.primaryEmail).toBe("renamed@testuser.com");

    expect((await entra.patch(`/Users/${id}`, [{ op: "Replace", path: "active", value: "False" }])).status).toBe(204);
    expect((await entra.get(`/Users/${id}`)).json.active).toBe(false);
    expect((await entra.patch(`/Users/${id}`, [{ op: "Replace", path: "active", value: "True" }])).status).toBe(204);
    expect((await entra.get(`/Users/${id}`)).json.active).toBe(true);

    const group = await entra.post("/Groups", {
      schemas: [GROUP],
      externalId: "8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159",
      displayName: "displayName",
      meta: { resourceType: "Group" },
    });
    expect(group.status).toBe(201);
    const gid = group.json.id;
    const lookup = await entra.get(`/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "displayName"')}`);
    expect(lookup.json.totalResults).toBe(1);
    expect(lookup.json.Resources[0].members).toBeUndefined();
    const add = await entra.patch(`/Groups/${gid}`, [{ op: "Add", path: "members", value: [{ value: id }] }]);
    expect(add.status).toBe(204);
    const member = await entra.get(
      `/Groups?filter=${encodeURIComponent(`id eq "${gid}" and members[value eq "${id}"]`)}&excludedAttributes=members`,
    );
    expect(member.json.totalResults).toBe(1);
    await entra.patch(`/Groups/${gid}`, [
      { op: "Replace", path: "displayName", value: "1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName" },
    ]);
    const renamed = await entra.get(`/Groups/${gid}`);
    expect(renamed.json.displayName).toBe("1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName");
    await entra.patch(`/Groups/${gid}`, [{ op: "Remove", path: "members", value: [{ value: id }] }]);
    expect((await entra.get(`/Groups/${gid}`)).json.members).toEqual([]);
    expect((await entra.delete(`/Users/${id}`)).status).toBe(204);
    expect((await entra.get(`/Users/${id}`)).status).toBe(404);

    expect(await eventTypes(entra.tenant.id)).toEqual([
      "directory_user.created",
      "directory_user.updated",
      "directory_user.deactivated",
      "directory_user.reactivated",
      "directory_group.created",
      "directory_group.user_added",
      "directory_group.updated",
      "directory_group.user_removed",
      "directory_user.deleted",
    ]);
  });
});
