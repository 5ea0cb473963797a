/** Directories made directly in the test database, with a fresh token (only its hash is stored). */
import { randomBytes } from "node:crypto";
import { db } from "./fixtures.ts";
import { newDirectoryToken } from "../../server/directories/token.ts";
import type { DirectoryProvider } from "../../server/directories/schemas.ts";

export interface TestDirectory {
  id: string;
  tenantId: string;
  name: string;
  token: string;
  /** `/api/scim/v2/{id}`: the SCIM base path, to put after a server's URL. */
  scimPath: string;
}

export async function createTestDirectory(
  tenantId: string,
  options: { name?: string; provider?: DirectoryProvider; enabled?: boolean; defaultRole?: "admin" | "viewer" | null } = {},
): Promise<TestDirectory> {
  const { token, tokenHash, tokenHint } = newDirectoryToken();
  const row = await (
    await db()
  ).directory.create({
    data: {
      tenantId,
      name: options.name ?? `Directory ${randomBytes(3).toString("hex")}`,
      provider: options.provider ?? "generic",
      enabled: options.enabled ?? true,
      tokenHash,
      tokenHint,
      defaultRole: options.defaultRole ?? null,
    },
  });
  return { id: row.id, tenantId, name: row.name, token, scimPath: `/api/scim/v2/${row.id}` };
}
