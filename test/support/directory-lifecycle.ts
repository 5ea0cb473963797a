/**
 * Directory users and groups written straight to the database, and reconcile called as the SCIM
 * endpoint calls it (server/directories/lifecycle.ts): the lifecycle tests' world, without SCIM.
 */
import { randomBytes } from "node:crypto";
import { database } from "../../server/db/client.ts";
import { directoryActor } from "../../server/directories/actor.ts";
import { reconcileDirectoryUsers } from "../../server/directories/lifecycle.ts";
import { newDirectoryToken } from "../../server/directories/token.ts";
import type { RoleMapping } from "../../server/directories/schemas.ts";
import { db, verifiedDomains } from "./fixtures.ts";

/**
 * A verified domain of the tenant, made once per tenant (`owned-<tenant>.example`): a directory acts
 * only on people in its tenant's verified domains (server/domains/ownership.ts).
 */
export async function ownedDomain(tenantId: string): Promise<string> {
  const domain = `owned-${tenantId.slice(0, 8)}.example`;
  await verifiedDomains(tenantId, [domain], { autoJoin: false });
  return domain;
}

/**
 * A directory of the tenant, and `domain`, a verified domain of the tenant for its people's emails.
 * `governsExisting`: it also governs members who joined another way.
 */
export async function makeDirectory(
  tenantId: string,
  options: { defaultRole?: "admin" | "viewer" | null; roleMappings?: RoleMapping[]; governsExisting?: boolean } = {},
) {
  const { tokenHash, tokenHint } = newDirectoryToken();
  const domain = await ownedDomain(tenantId);
  const directory = await (
    await db()
  ).directory.create({
    data: {
      tenantId,
      name: `Okta ${randomBytes(3).toString("hex")}`,
      provider: "okta",
      tokenHash,
      tokenHint,
      defaultRole: options.defaultRole === undefined ? "viewer" : options.defaultRole,
      roleMappings: options.roleMappings ?? [],
      governsExistingMembers: options.governsExisting ?? false,
    },
  });
  return { ...directory, domain };
}

type DirectoryRef = { id: string; tenantId: string };

export async function addDirectoryUser(directory: DirectoryRef, email: string, options: { active?: boolean } = {}) {
  const [givenName, familyName] = ["Grace", "Hopper"];
  return (await db()).directoryUser.create({
    data: {
      directoryId: directory.id,
      tenantId: directory.tenantId,
      userName: email,
      externalId: `okta-${randomBytes(4).toString("hex")}`,
      active: options.active ?? true,
      givenName,
      familyName,
      primaryEmail: email.toLowerCase(),
      resource: { userName: email, active: options.active ?? true, name: { givenName, familyName } },
    },
  });
}

export async function addGroup(directory: DirectoryRef, displayName: string, externalId: string | null = null) {
  return (await db()).directoryGroup.create({
    data: { directoryId: directory.id, tenantId: directory.tenantId, displayName, externalId, resource: { displayName } },
  });
}

export async function join(directory: DirectoryRef, groupId: string, userId: string) {
  await (await db()).directoryGroupMember.create({ data: { directoryId: directory.id, groupId, userId } });
}

export async function leave(groupId: string, userId: string) {
  await (await db()).directoryGroupMember.delete({ where: { groupId_userId: { groupId, userId } } });
}

export async function setActive(directoryUserId: string, active: boolean) {
  await (await db()).directoryUser.update({ where: { id: directoryUserId }, data: { active } });
}

/** Reconciles these directory users in one transaction, the directory as actor (as SCIM does). */
export async function reconcile(directoryId: string, userIds: string[], options: { deleting?: boolean } = {}) {
  const { prisma } = await database();
  await prisma.$transaction(
    async (tx) => {
      const directory = await tx.directory.findUniqueOrThrow({ where: { id: directoryId } });
      await reconcileDirectoryUsers(
        tx,
        directory,
        userIds,
        directoryActor(directory, { requestId: "test", ip: "192.0.2.7", userAgent: "Okta SCIM" }),
        options,
      );
    },
    { timeout: 60_000 },
  );
}

/** Every directory user of the directory: what a mapping edit or a rename recomputes. */
export async function everyone(directoryId: string): Promise<string[]> {
  return (await (await db()).directoryUser.findMany({ where: { directoryId }, select: { id: true } })).map((u) => u.id);
}

export async function membershipOf(tenantId: string, email: string) {
  const user = await (await db()).user.findUnique({ where: { email }, include: { memberships: { where: { tenantId } } } });
  return user?.memberships[0]?.role ?? null;
}
