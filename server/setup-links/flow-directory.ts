/**
 * The guided directory setup of a setup link: the IT admin picks the IdP that will push people,
 * which creates the directory; copies its SCIM base URL and token (shown once, as in the console)
 * into the IdP with that IdP's steps; then watches a live status until the first users arrive.
 * The link works on one directory only: the one it was made for, or the one it creates. A lost
 * token is replaced (rotated), never shown again.
 */
import type { SetupLinkGrant } from "../auth/principal.ts";
import type { TenantServiceContext } from "../service-context.ts";
import { AppError, Conflict } from "../errors.ts";
import { createDirectory, directoryView, getDirectory, rotateDirectoryToken } from "../directories/index.ts";
import type { Directory as DirectoryRow } from "../db/generated/client.ts";
import { DIRECTORY_PROVIDER_NAMES, type DirectoryProvider } from "../directories/schemas.ts";

async function linkDirectory(ctx: TenantServiceContext, link: SetupLinkGrant): Promise<DirectoryRow | null> {
  const row = await ctx.db.prisma.setupLink.findUniqueOrThrow({ where: { id: link.id }, select: { directoryId: true } });
  if (!row.directoryId) return null;
  try {
    return await getDirectory(ctx, row.directoryId);
  } catch (error) {
    // Deleted by an admin since: the IT admin may start again.
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  }
}

/** What the directory steps show: the directory once created (counts and last request: the live status). */
export async function directoryState(ctx: TenantServiceContext, link: SetupLinkGrant) {
  const directory = await linkDirectory(ctx, link);
  return { directory: directory ? await directoryView(ctx, directory) : null };
}

/** Creates the link's directory for the IdP picked; answers it with its token, shown this once. */
export async function createSetupDirectory(ctx: TenantServiceContext, link: SetupLinkGrant, provider: DirectoryProvider) {
  if (await linkDirectory(ctx, link)) throw Conflict("The directory is created already: make a new token if the first one is lost");
  const { row, token } = await createDirectory(ctx, {
    tenant_id: ctx.tenantId,
    name: DIRECTORY_PROVIDER_NAMES[provider],
    provider,
  });
  await ctx.db.prisma.setupLink.update({ where: { id: link.id }, data: { directoryId: row.id } });
  return { directory: await directoryView(ctx, row), token };
}

/** A new token for the link's directory (the old one stops working at once); shown this once. */
export async function rotateSetupDirectoryToken(ctx: TenantServiceContext, link: SetupLinkGrant) {
  const directory = await linkDirectory(ctx, link);
  if (!directory) throw Conflict("Create the directory first");
  const { row, token } = await rotateDirectoryToken(ctx, directory.id);
  return { directory: await directoryView(ctx, row), token };
}
