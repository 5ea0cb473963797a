/** Setup links of a tenant over REST at /tenants/{tenant_id}/setup-links (the admin's side). */
import { router } from "../trpc/init.ts";
import { tenantProcedure } from "../trpc/procedures.ts";
import { created, serviceContext } from "../trpc/context.ts";
import { envelope, pageRequest } from "../contract/pagination.ts";
import {
  CreatedSetupLink,
  CreateSetupLinkInput,
  ListSetupLinksInput,
  RevokeSetupLinkInput,
  SetupLink,
  SetupLinkPage,
  SetupLinkPathInput,
  SetupLinkRevocation,
} from "./schemas.ts";
import { createSetupLink, directoryAfterRevoke, getSetupLink, listSetupLinks, presentSetupLink, revokeSetupLink } from "./service.ts";

const tags = ["Setup links"];
const base = "/tenants/{tenant_id}/setup-links";
const one = `${base}/{setup_link_id}` as const;

export const setupLinksRouter = router({
  list: tenantProcedure("admin")
    .meta({
      openapi: {
        method: "GET",
        path: base,
        tags,
        summary: "List a tenant's setup links",
        description: "Newest first; revoked and expired ones included (`state`).",
        protect: true,
      },
    })
    .input(ListSetupLinksInput)
    .output(SetupLinkPage)
    .query(async ({ ctx, input }) => {
      const page = await listSetupLinks(serviceContext(ctx), pageRequest(input));
      return envelope(ctx.url, input, page, (row) => presentSetupLink(row));
    }),

  create: tenantProcedure("admin")
    .meta({
      successStatus: 201,
      stepUp: true,
      openapi: {
        method: "POST",
        path: base,
        tags,
        summary: "Make a setup link",
        description:
          "A one-time URL for the customer's IT admin: opened without an account, it starts a 4-hour guided setup of `intent` in this " +
          "tenant only (nothing else: no members, tokens, webhooks, other intents). The token is in `url` only, shown once, stored hashed. " +
          "The link must be opened within `expires_in` seconds (default 7 days). Everything done through it is audited with actor " +
          "`setup_link:<id>` and the link's creator in `details.setup_link`. Needs a step-up (401 `step_up_required`): it hands part " +
          "of an admin's power to someone else. Emits `setup_link.created` (and `setup_link.opened` at each opening).",
        protect: true,
      },
    })
    .input(CreateSetupLinkInput)
    .output(CreatedSetupLink)
    .mutation(async ({ ctx, input }) => {
      const { row, url } = await createSetupLink(serviceContext(ctx), input);
      return created(ctx, `/api/v1/tenants/${ctx.tenant.id}/setup-links/${row.id}`, { ...presentSetupLink(row), url });
    }),

  get: tenantProcedure("admin")
    .meta({
      openapi: {
        method: "GET",
        path: one,
        tags,
        summary: "Get a setup link",
        description: "Never the URL: it was shown once.",
        protect: true,
      },
    })
    .input(SetupLinkPathInput)
    .output(SetupLink)
    .query(async ({ ctx, input }) => presentSetupLink(await getSetupLink(serviceContext(ctx), input.setup_link_id))),

  delete: tenantProcedure("admin")
    .meta({
      openapi: {
        method: "DELETE",
        path: one,
        tags,
        summary: "Revoke a setup link",
        description:
          "The link no longer opens and every session started from it ends now. Answers 200 with the link and, for a `directory_sync` " +
          "link, what becomes of its directory: the directory and its SCIM token live on (the IdP keeps syncing). " +
          "`rotate_directory_token=true` replaces that token in the same step (step-up; the new one is in `directory_token`, shown once). " +
          "Revoking a revoked link changes nothing (and may still rotate). Emits `setup_link.revoked` (and `directory.token_rotated`).",
        protect: true,
      },
    })
    .input(RevokeSetupLinkInput)
    .output(SetupLinkRevocation)
    .mutation(async ({ ctx, input }) => {
      const rotate = input.rotate_directory_token === "true";
      const { row, directory, token } = await revokeSetupLink(serviceContext(ctx), input.setup_link_id, { rotateDirectoryToken: rotate });
      return {
        setup_link: presentSetupLink(row),
        directory: directory
          ? {
              id: directory.id,
              name: directory.name,
              token_hint: directory.tokenHint,
              token_rotated: token !== null,
              message: directoryAfterRevoke(directory, token !== null),
            }
          : null,
        directory_token: token,
      };
    }),
});
