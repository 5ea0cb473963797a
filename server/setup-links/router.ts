/** Setup links of a tenant over REST at /tenants/{tenant_id}/setup-links (the admin's side). */
import { z } from "zod";
import { router } from "../trpc/init.ts";
import { tenantProcedure } from "../trpc/procedures.ts";
import { created, noContent, serviceContext } from "../trpc/context.ts";
import { envelope, pageRequest } from "../contract/pagination.ts";
import { CreatedSetupLink, CreateSetupLinkInput, ListSetupLinksInput, SetupLink, SetupLinkPage, SetupLinkPathInput } from "./schemas.ts";
import { createSetupLink, getSetupLink, listSetupLinks, presentSetupLink, revokeSetupLink } from "./service.ts";

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
      successStatus: 204,
      openapi: {
        method: "DELETE",
        path: one,
        tags,
        summary: "Revoke a setup link",
        description: "The link no longer opens and every session started from it ends now. Emits `setup_link.revoked`.",
        protect: true,
      },
    })
    .input(SetupLinkPathInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await revokeSetupLink(serviceContext(ctx), input.setup_link_id);
      noContent(ctx);
    }),
});
