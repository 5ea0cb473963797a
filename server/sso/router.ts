/**
 * SSO providers over REST at /sso (the tenant comes from a tenant-scoped token) and at
 * /tenants/{tenant_id}/sso (the same operations, naming the tenant). One set of procedures,
 * built twice.
 */
import { z } from "zod";
import { router } from "../trpc/init.ts";
import { authedProcedure, tenantProcedure } from "../trpc/procedures.ts";
import { created, noContent, serviceContext } from "../trpc/context.ts";
import { envelope, pageRequest } from "../contract/pagination.ts";
import {
  CreateSsoInput,
  CreateSsoInTenantInput,
  ListSsoInput,
  ListSsoInTenantInput,
  ProviderInTenantPathInput,
  ProviderPathInput,
  SsoPage,
  SsoProvider,
  UpdateSsoInput,
  UpdateSsoInTenantInput,
} from "./schemas.ts";
import { ExpiringCertificatePage, ListExpiringCertificatesInput } from "./certificate-schemas.ts";
import { listExpiringCertificates, presentExpiring } from "./certificates.ts";
import { createProvider, deleteProvider, getProvider, listProviders, presentProvider, refreshMetadata, updateProvider } from "./service.ts";

const tags = ["SSO"];

function ssoRouter<
  L extends typeof ListSsoInput | typeof ListSsoInTenantInput,
  C extends typeof CreateSsoInput | typeof CreateSsoInTenantInput,
  U extends typeof UpdateSsoInput | typeof UpdateSsoInTenantInput,
  P extends typeof ProviderPathInput | typeof ProviderInTenantPathInput,
>(base: `/${string}`, note: string, schemas: { list: L; create: C; update: U; path: P }) {
  const one = `${base}/{provider_id}` as const;
  return router({
    list: tenantProcedure("viewer")
      .meta({ openapi: { method: "GET", path: base, tags, summary: `List SSO providers${note}`, protect: true } })
      .input(schemas.list)
      .output(SsoPage)
      .query(async ({ ctx, input }) =>
        envelope(ctx.url, input, await listProviders(serviceContext(ctx), pageRequest(input)), presentProvider),
      ),

    create: tenantProcedure("admin")
      .meta({
        successStatus: 201,
        openapi: {
          method: "POST",
          path: base,
          tags,
          summary: `Create an SSO provider${note}`,
          description:
            "Exactly one of `metadata_url` and `metadata_xml` (400 naming the field otherwise). A `metadata_url` is fetched and checked " +
            "after the reply (see `metadata.status`). A `metadata_xml` (SAML types only, the IdP's metadata document, at most 1 MiB, " +
            "no DTD) is read before the reply: 400 naming `metadata_xml` when it is not usable IdP metadata (not XML, a DTD or entity, " +
            "an SP's metadata, no signing certificate), else `metadata.status: valid` with what it says. " +
            "Emits `sso_provider.created` (an uploaded document as its SHA-256, never in full).",
          protect: true,
        },
      })
      .input(schemas.create)
      .output(SsoProvider)
      .mutation(async ({ ctx, input }) => {
        const provider = await createProvider(serviceContext(ctx), input);
        return created(ctx, `/api/v1/tenants/${ctx.tenant.id}/sso/${provider.id}`, presentProvider(provider));
      }),

    get: tenantProcedure("viewer")
      .meta({ openapi: { method: "GET", path: one, tags, summary: `Get an SSO provider${note}`, protect: true } })
      .input(schemas.path)
      .output(SsoProvider)
      .query(async ({ ctx, input }) => presentProvider(await getProvider(serviceContext(ctx), input.provider_id))),

    update: tenantProcedure("admin")
      .meta({
        stepUp: true,
        openapi: {
          method: "PATCH",
          path: one,
          tags,
          summary: `Update an SSO provider${note}`,
          description:
            "Needs the tenant admin role. A step-up in the last 10 minutes is also needed (else 401 `step_up_required`, nothing changed) " +
            "to disable the provider (`enabled: false`) or to change who is trusted or where sign-in data goes: " +
            "`metadata_url`, `metadata_xml`, `domains`, `client_id`, `default_role`, `allow_idp_initiated`, `entra_tenant_ids`. " +
            "Giving a field its current value is not a change; `name`, `client_secret` and `enabled: true` need no step-up. " +
            "`metadata_xml` replaces the source with an uploaded document (read now, 400 naming it when unusable; `metadata_url` becomes null), " +
            "`metadata_url` replaces an uploaded document; not both in one request. " +
            "A new `metadata_url` or `metadata_xml` drops the stored OIDC client secret unless the same request gives `client_secret`: " +
            "the provider then shows `client_secret_set: false`, `client_secret_dropped: true`, and its sign-in and Test sign-in are refused " +
            "(`not_configured`) until a secret is entered again. " +
            "Emits `sso_provider.updated` (changed fields; the secret only as set/changed/unset/dropped, a new document as " +
            "`metadata_xml: {from: url|xml, to: xml, sha256}`) and `sso_provider.enabled`/`.disabled`.",
          protect: true,
        },
      })
      .input(schemas.update)
      .output(SsoProvider)
      .mutation(async ({ ctx, input }) => presentProvider(await updateProvider(serviceContext(ctx), input))),

    delete: tenantProcedure("admin")
      .meta({
        successStatus: 204,
        stepUp: true,
        openapi: {
          method: "DELETE",
          path: one,
          tags,
          summary: `Delete an SSO provider${note}`,
          description: "Needs a step-up. Emits `sso_provider.deleted`.",
          protect: true,
        },
      })
      .input(schemas.path)
      .output(z.void())
      .mutation(async ({ ctx, input }) => {
        await deleteProvider(serviceContext(ctx), input.provider_id);
        noContent(ctx);
      }),

    refreshMetadata: tenantProcedure("admin")
      .meta({
        openapi: {
          method: "POST",
          path: `${one}/refresh-metadata`,
          tags,
          summary: `Fetch and check the metadata again${note}`,
          description:
            "Waits for the check (at most about 5 s) and answers the provider. An uploaded document (`metadata_source: xml`) is " +
            "read again (its certificates' expiry evaluated now), never fetched.",
          protect: true,
        },
      })
      .input(schemas.path)
      .output(SsoProvider)
      .mutation(async ({ ctx, input }) => presentProvider(await refreshMetadata(serviceContext(ctx), input.provider_id))),
  });
}

/** /api/v1/sso: the tenant is the token's tenant scope, or the caller's only tenant. */
export const ssoRouterImplied = ssoRouter("/sso", "", {
  list: ListSsoInput,
  create: CreateSsoInput,
  update: UpdateSsoInput,
  path: ProviderPathInput,
});

/** /api/v1/tenants/{tenant_id}/sso: the same operations for a named tenant. */
export const ssoRouterInTenant = ssoRouter("/tenants/{tenant_id}/sso", " (tenant in path)", {
  list: ListSsoInTenantInput,
  create: CreateSsoInTenantInput,
  update: UpdateSsoInTenantInput,
  path: ProviderInTenantPathInput,
});

/**
 * /api/v1/sso-certificates/expiring: operators and support, across tenants. Not below /sso, where
 * GET /sso/{provider_id} would take the path.
 */
export const ssoCertificatesRouter = router({
  expiring: authedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/sso-certificates/expiring",
        tags,
        summary: "List expiring SAML certificates",
        description:
          "Enabled SAML providers of every tenant whose signing certificate ends within `within_days` (default 30; expired ones included), " +
          "soonest first; operators and support only (others: 403). Paginated. Each certificate is also announced to its tenant " +
          "by `sso_provider.certificate_expiring` at 30 days, 7 days and expiry.",
        protect: true,
      },
    })
    .input(ListExpiringCertificatesInput)
    .output(ExpiringCertificatePage)
    .query(async ({ ctx, input }) =>
      envelope(ctx.url, input, await listExpiringCertificates(serviceContext(ctx), pageRequest(input), input.within_days), presentExpiring),
    ),
});
