/** The first 8 characters of a tenant's ID: enough to tell apart two tenants of the same name. */
export function shortTenantId(id: string): string {
  return id.slice(0, 8);
}

/** "Acme Corp · 3f2a9c1e": a tenant as a text-only choice (a select's option) names it. */
export function tenantChoiceText(tenant: { id: string; name: string }): string {
  return `${tenant.name} · ${shortTenantId(tenant.id)}`;
}
