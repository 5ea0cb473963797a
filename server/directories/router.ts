/**
 * Directories of a tenant over REST at /tenants/{tenant_id}/directories: the directories
 * themselves (admins change them, viewers read them), the read API of their users and groups, and
 * the sync activity. The IdP's side, SCIM 2.0, is served at each directory's `scim_base_url`.
 */
import { z } from "zod";
import { router } from "../trpc/init.ts";
import { tenantProcedure } from "../trpc/procedures.ts";
import { created, noContent, serviceContext } from "../trpc/context.ts";
import { envelope, pageRequest } from "../contract/pagination.ts";
import {
  CreateDirectoryInput,
  Directory,
  DirectoryGroup,
  DirectoryGroupPage,
  DirectoryGroupPathInput,
  DirectoryPage,
  DirectoryPathInput,
  DirectoryUser,
  DirectoryUserPage,
  DirectoryUserPathInput,
  DirectoryWithToken,
  ListDirectoriesInput,
  ListDirectoryGroupsInput,
  ListDirectoryUsersInput,
  ListScimRequestsInput,
  ScimRequestPage,
  UpdateDirectoryInput,
} from "./schemas.ts";
import {
  createDirectory,
  deleteDirectory,
  directoryView,
  getDirectory,
  listDirectories,
  presentDirectory,
  rotateDirectoryToken,
  updateDirectory,
} from "./service.ts";
import { getDirectoryGroup, getDirectoryUser, listDirectoryGroups, listDirectoryUsers, listScimRequests } from "./read.ts";

const tags = ["Directory Sync"];
const base = "/tenants/{tenant_id}/directories";
const one = `${base}/{directory_id}` as const;
const same = <T>(item: T) => item;

export const directoriesRouter = router({
  list: tenantProcedure("viewer")
    .meta({
      openapi: { method: "GET", path: base, tags, summary: "List a tenant's directories", description: "Newest first.", protect: true },
    })
    .input(ListDirectoriesInput)
    .output(DirectoryPage)
    .query(async ({ ctx, input }) => {
      const page = await listDirectories(serviceContext(ctx), pageRequest(input));
      return envelope(ctx.url, input, page, ({ row, counts }) => presentDirectory(row, counts));
    }),

  create: tenantProcedure("admin")
    .meta({
      successStatus: 201,
      openapi: {
        method: "POST",
        path: base,
        tags,
        summary: "Create a directory",
        description:
          "A SCIM 2.0 endpoint for one IdP connection: give the IdP `scim_base_url` and `token` (a bearer token, shown only in this " +
          "answer: only its hash is kept). `role_mappings` map groups to console roles, the first match winning; `default_role` is " +
          "the role of a user in no mapped group (null, the default: no console membership). Emits `directory.created`.",
        protect: true,
      },
    })
    .input(CreateDirectoryInput)
    .output(DirectoryWithToken)
    .mutation(async ({ ctx, input }) => {
      const { row, token } = await createDirectory(serviceContext(ctx), input);
      return created(ctx, `/api/v1/tenants/${ctx.tenant.id}/directories/${row.id}`, presentDirectory(row, { users: 0, groups: 0 }, token));
    }),

  get: tenantProcedure("viewer")
    .meta({ openapi: { method: "GET", path: one, tags, summary: "Get a directory", description: "Never the token.", protect: true } })
    .input(DirectoryPathInput)
    .output(Directory)
    .query(async ({ ctx, input }) => {
      const service = serviceContext(ctx);
      return directoryView(service, await getDirectory(service, input.directory_id));
    }),

  update: tenantProcedure("admin")
    .meta({
      openapi: {
        method: "PATCH",
        path: one,
        tags,
        summary: "Change a directory",
        description:
          "`{name?, enabled?, default_role?, role_mappings?}`. A disabled directory answers 401 to its IdP. New role mappings or a " +
          "new default role recompute every directory user's console role and membership at once. Emits `directory.updated` with " +
          "the changes (from, to), and `directory.enabled`/`directory.disabled` when `enabled` flips; nothing when nothing changed.",
        protect: true,
      },
    })
    .input(UpdateDirectoryInput)
    .output(Directory)
    .mutation(async ({ ctx, input }) => {
      const service = serviceContext(ctx);
      return directoryView(service, await updateDirectory(service, input));
    }),

  rotateToken: tenantProcedure("admin")
    .meta({
      stepUp: true,
      openapi: {
        method: "POST",
        path: `${one}/rotate-token`,
        tags,
        summary: "Rotate the directory's token",
        description:
          "Needs a step-up in the last 10 minutes (else 401 `step_up_required`). The new token is returned once; the old one stops " +
          "working at once, so paste the new one into the IdP right away. Emits `directory.token_rotated`.",
        protect: true,
      },
    })
    .input(DirectoryPathInput)
    .output(DirectoryWithToken)
    .mutation(async ({ ctx, input }) => {
      const service = serviceContext(ctx);
      const { row, token } = await rotateDirectoryToken(service, input.directory_id);
      return { ...(await directoryView(service, row)), token };
    }),

  delete: tenantProcedure("admin")
    .meta({
      successStatus: 204,
      stepUp: true,
      openapi: {
        method: "DELETE",
        path: one,
        tags,
        summary: "Delete a directory",
        description:
          "Needs a step-up in the last 10 minutes (else 401 `step_up_required`). Every user of the directory is deprovisioned first " +
          "(console membership ended, API tokens revoked, sessions ended), then the directory, its users, groups and sync activity " +
          "are removed. Emits `directory.deleted`.",
        protect: true,
      },
    })
    .input(DirectoryPathInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await deleteDirectory(serviceContext(ctx), input.directory_id);
      noContent(ctx);
    }),

  listUsers: tenantProcedure("viewer")
    .meta({
      openapi: {
        method: "GET",
        path: `${one}/users`,
        tags,
        summary: "List a directory's users",
        description:
          "Newest first, each with their groups. Filters: `group_id` (members of that group), `state` (`active`, `inactive`), " +
          "`linked` (`true`: linked to a console account; `false`: not, e.g. outside the tenant's verified domains), " +
          "`search` (part of the user name, an email, the first or last name, any case; or a user's id).",
        protect: true,
      },
    })
    .input(ListDirectoryUsersInput)
    .output(DirectoryUserPage)
    .query(async ({ ctx, input }) => {
      const linked = input.linked === undefined ? undefined : input.linked === "true";
      const filter = { group_id: input.group_id, state: input.state, linked, search: input.search };
      return envelope(ctx.url, input, await listDirectoryUsers(serviceContext(ctx), input.directory_id, filter, pageRequest(input)), same);
    }),

  getUser: tenantProcedure("viewer")
    .meta({ openapi: { method: "GET", path: `${one}/users/{directory_user_id}`, tags, summary: "Get a directory user", protect: true } })
    .input(DirectoryUserPathInput)
    .output(DirectoryUser)
    .query(async ({ ctx, input }) => getDirectoryUser(serviceContext(ctx), input.directory_id, input.directory_user_id)),

  listGroups: tenantProcedure("viewer")
    .meta({
      openapi: {
        method: "GET",
        path: `${one}/groups`,
        tags,
        summary: "List a directory's groups",
        description: "Newest first, each with its number of users. `search`: part of the name, any case, or a group's id.",
        protect: true,
      },
    })
    .input(ListDirectoryGroupsInput)
    .output(DirectoryGroupPage)
    .query(async ({ ctx, input }) =>
      envelope(
        ctx.url,
        input,
        await listDirectoryGroups(serviceContext(ctx), input.directory_id, { search: input.search }, pageRequest(input)),
        same,
      ),
    ),

  getGroup: tenantProcedure("viewer")
    .meta({ openapi: { method: "GET", path: `${one}/groups/{directory_group_id}`, tags, summary: "Get a directory group", protect: true } })
    .input(DirectoryGroupPathInput)
    .output(DirectoryGroup)
    .query(async ({ ctx, input }) => getDirectoryGroup(serviceContext(ctx), input.directory_id, input.directory_group_id)),

  listRequests: tenantProcedure("admin")
    .meta({
      openapi: {
        method: "GET",
        path: `${one}/requests`,
        tags,
        summary: "List a directory's sync activity",
        description:
          "The SCIM requests the IdP sent, newest first, kept 30 days: method, path, status, duration and a one-line summary (never " +
          "the token or the bodies). `failed=true`: only the requests answered with an error (400 or above).",
        protect: true,
      },
    })
    .input(ListScimRequestsInput)
    .output(ScimRequestPage)
    .query(async ({ ctx, input }) => {
      const failed = input.failed === undefined ? undefined : input.failed === "true";
      return envelope(
        ctx.url,
        input,
        await listScimRequests(serviceContext(ctx), input.directory_id, { failed }, pageRequest(input)),
        same,
      );
    }),
});
