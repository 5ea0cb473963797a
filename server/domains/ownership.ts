/**
 * Who a tenant owns: the people whose email is in one of its verified domains (proved by DNS, or
 * vouched for by an operator; a verified domain belongs to one tenant platform-wide). Only those may
 * a directory, an SSO provider's first sign-in or auto-join create, link, change or remove
 * (issue 38). A domain pending verification, even one that routes sign-ins while pending, owns no one.
 */
import type { SqlStatements } from "../db/sql.ts";

/** The domain of an email address, lowercase; null when it has none. */
export function domainOf(email: string): string | null {
  const at = email.lastIndexOf("@");
  const domain =
    at > 0
      ? email
          .slice(at + 1)
          .trim()
          .toLowerCase()
      : "";
  return domain && !domain.includes("@") ? domain : null;
}

/** The tenant's verified domains. */
export async function verifiedDomainsOf(sql: SqlStatements, tenantId: string): Promise<Set<string>> {
  const rows = await sql.query<{ domain: string }>(`SELECT domain FROM domains WHERE tenant_id = $1::uuid AND state = 'verified'`, [
    tenantId,
  ]);
  return new Set(rows.map((r) => r.domain));
}

/** Whether the tenant owns this email: its domain is one of the tenant's verified domains. */
export async function ownsEmail(sql: SqlStatements, tenantId: string, email: string): Promise<boolean> {
  const domain = domainOf(email);
  if (!domain) return false;
  const rows = await sql.query(`SELECT 1 FROM domains WHERE tenant_id = $1::uuid AND domain = $2 AND state = 'verified'`, [
    tenantId,
    domain,
  ]);
  return rows.length > 0;
}
