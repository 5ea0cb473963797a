import { z } from "zod";
import { text } from "../contract/fields.ts";
import { pageOf, PageQuery, SearchQuery } from "../contract/page-query.ts";

export const MAX_TENANT_NAME_LENGTH = 100;

export const TenantName = text({ error: "is required and must be a string" })
  .trim()
  .min(1, "must not be empty")
  .max(MAX_TENANT_NAME_LENGTH, `must be at most ${MAX_TENANT_NAME_LENGTH} characters`);

export const CreateTenantInput = z.strictObject({ name: TenantName }).meta({ id: "CreateTenantRequest" });
export type CreateTenantInput = z.infer<typeof CreateTenantInput>;

export const Tenant = z
  .object({
    id: z.uuid(),
    name: z.string(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "Tenant" });
export type Tenant = z.infer<typeof Tenant>;

export const TenantIdInput = z.object({ tenant_id: z.string().max(100) });

export const ListTenantsInput = PageQuery.extend({ search: SearchQuery });
export type ListTenantsInput = z.infer<typeof ListTenantsInput>;
export const TenantPage = pageOf(Tenant).meta({ id: "TenantPage" });
