/** Verified domains of a tenant over REST at /tenants/{tenant_id}/domains. */
import { z } from "zod";
import { router } from "../trpc/init.ts";
import { tenantProcedure } from "../trpc/procedures.ts";
import { created, noContent, serviceContext } from "../trpc/context.ts";
import { envelope, pageRequest } from "../contract/pagination.ts";
import {
  CreateDomainInput,
  Domain,
  DomainPage,
  DomainPathInput,
  ListDomainsInput,
  UpdateDomainInput,
  VerifyDomainInput,
} from "./schemas.ts";
import { createDomain, deleteDomain, getDomain, listDomains, presentDomain, updateDomain, verifyDomain } from "./service.ts";

const tags = ["Domains"];
const base = "/tenants/{tenant_id}/domains";
const one = `${base}/{domain_id}` as const;

export const domainsRouter = router({
  list: tenantProcedure("viewer")
    .meta({ openapi: { method: "GET", path: base, tags, summary: "List a tenant's domains", description: "Newest first.", protect: true } })
    .input(ListDomainsInput)
    .output(DomainPage)
    .query(async ({ ctx, input }) => envelope(ctx.url, input, await listDomains(serviceContext(ctx), pageRequest(input)), presentDomain)),

  create: tenantProcedure("admin")
    .meta({
      successStatus: 201,
      openapi: {
        method: "POST",
        path: base,
        tags,
        summary: "Add a domain",
        description:
          "Starts `pending`, with the TXT record to publish (`verification`). The domain is stored lowercase and in punycode. " +
          "409 when the tenant has it already, or another tenant has verified it. Emits `domain.created`.",
        protect: true,
      },
    })
    .input(CreateDomainInput)
    .output(Domain)
    .mutation(async ({ ctx, input }) => {
      const row = await createDomain(serviceContext(ctx), input);
      return created(ctx, `/api/v1/tenants/${ctx.tenant.id}/domains/${row.id}`, presentDomain(row));
    }),

  get: tenantProcedure("viewer")
    .meta({ openapi: { method: "GET", path: one, tags, summary: "Get a domain", protect: true } })
    .input(DomainPathInput)
    .output(Domain)
    .query(async ({ ctx, input }) => presentDomain(await getDomain(serviceContext(ctx), input.domain_id))),

  update: tenantProcedure("admin")
    .meta({
      openapi: {
        method: "PATCH",
        path: one,
        tags,
        summary: "Turn auto-join on or off",
        description:
          "`{auto_join}`: with it on, a person not yet a member who signs in through the tenant's SSO with an email in this domain " +
          "joins with the provider's default role. Only a verified domain may turn it on (400 naming `auto_join`). Emits `domain.updated`.",
        protect: true,
      },
    })
    .input(UpdateDomainInput)
    .output(Domain)
    .mutation(async ({ ctx, input }) => presentDomain(await updateDomain(serviceContext(ctx), input))),

  verify: tenantProcedure("admin")
    .meta({
      openapi: {
        method: "POST",
        path: `${one}/verify`,
        tags,
        summary: "Verify a domain now",
        description:
          "Looks up the TXT record now and answers the domain: `verified` on a match (emits `domain.verified`), else as it was, " +
          "with `last_check_result` and `last_error` saying why; a verified domain whose record is gone becomes `failed` " +
          "(emits `domain.verification_failed`). `{override: true, reason}`: platform operators only (403 otherwise), " +
          "marks it verified without DNS, the reason recorded with `domain.verified`. 409 when another tenant has verified the domain.",
        protect: true,
      },
    })
    .input(VerifyDomainInput)
    .output(Domain)
    .mutation(async ({ ctx, input }) => presentDomain(await verifyDomain(serviceContext(ctx), input))),

  delete: tenantProcedure("admin")
    .meta({
      successStatus: 204,
      openapi: { method: "DELETE", path: one, tags, summary: "Remove a domain", description: "Emits `domain.deleted`.", protect: true },
    })
    .input(DomainPathInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await deleteDomain(serviceContext(ctx), input.domain_id);
      noContent(ctx);
    }),
});
