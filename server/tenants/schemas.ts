import { z } from "zod";
import { pageOf, PageQuery } from "../http/pagination.ts";

export const TenantName = z
  .string({ error: "is required and must be a string" })
  .trim()
  .min(1, "must not be empty")
  .max(100, "must be at most 100 characters");

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

export const ListTenantsInput = PageQuery;
export const TenantPage = pageOf(Tenant).meta({ id: "TenantPage" });
