import { router } from "../trpc/init.ts";
import { authedProcedure, operatorProcedure } from "../trpc/procedures.ts";
import { created, serviceContext } from "../trpc/context.ts";
import { envelope, pageRequest } from "../contract/pagination.ts";
import { CreateTenantInput, ListTenantsInput, Tenant, TenantIdInput, TenantPage } from "./schemas.ts";
import { createTenant, getTenant, listTenants, presentTenant } from "./service.ts";

export const tenantsRouter = router({
  create: operatorProcedure
    .meta({
      successStatus: 201,
      openapi: {
        method: "POST",
        path: "/tenants",
        tags: ["Tenants"],
        summary: "Create a tenant",
        successDescription: "The created tenant",
        protect: true,
      },
    })
    .input(CreateTenantInput)
    .output(Tenant)
    .mutation(async ({ ctx, input }) => {
      const tenant = presentTenant(await createTenant(serviceContext(ctx), input));
      return created(ctx, `/api/v1/tenants/${tenant.id}`, tenant);
    }),

  list: authedProcedure
    .meta({ openapi: { method: "GET", path: "/tenants", tags: ["Tenants"], summary: "List tenants", protect: true } })
    .input(ListTenantsInput)
    .output(TenantPage)
    .query(async ({ ctx, input }) =>
      envelope(ctx.url, input, await listTenants(serviceContext(ctx), pageRequest(input), input.search), presentTenant),
    ),

  get: authedProcedure
    .meta({ openapi: { method: "GET", path: "/tenants/{tenant_id}", tags: ["Tenants"], summary: "Get a tenant", protect: true } })
    .input(TenantIdInput)
    .output(Tenant)
    .query(async ({ ctx, input }) => presentTenant(await getTenant(serviceContext(ctx), input.tenant_id))),
});
