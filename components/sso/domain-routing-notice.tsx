"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import type { Domain } from "@/server/domains/schemas";
import { consoleUrl } from "../console/urls";
import { useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { formatExact } from "../ui/relative-time";

/** Days a domain from before verification keeps routing while pending (server/domains PENDING_DAYS). */
const LEGACY_DAYS = 7;

/**
 * What an admin must do about a provider's domains: sign-in routes only domains the tenant
 * verified, so each domain that is not (pending, failed, or never added) is named here with a link
 * to the Domains page; a domain that routes only because a provider had it before domains were
 * verified says until when.
 */
export function DomainRoutingNotice({ tenantId, domains }: { tenantId: string; domains: string[] }) {
  const trpc = useTRPC();
  const tenantDomains = useQuery({
    ...trpc.domains.list.queryOptions({ tenant_id: tenantId, page_size: 100 }),
    enabled: domains.length > 0,
  });
  if (!domains.length || !tenantDomains.data) return null;
  const byName = new Map<string, Domain>(tenantDomains.data.results.map((d) => [d.domain, d]));
  const blocked = domains.filter((name) => !byName.get(name)?.routes_sign_ins);
  const grace = domains
    .map((name) => byName.get(name))
    .filter((d): d is Domain => d !== undefined && d.routes_sign_ins && d.state === "pending");
  if (!blocked.length && !grace.length) return null;
  const link = (
    <Link href={consoleUrl.tenantSection(tenantId, "domains")} className="font-medium underline">
      Domains
    </Link>
  );
  return (
    <div className="space-y-2" data-testid="domain-routing-notice">
      {blocked.length ? (
        <Alert tone="danger" title={`Sign-ins with ${blocked.join(", ")} are refused`}>
          Only domains this tenant has verified route sign-ins to its providers. Add and verify {blocked.length === 1 ? "it" : "them"} on{" "}
          {link}.
        </Alert>
      ) : null}
      {grace.map((d) => (
        <Alert key={d.id} tone="warning" title={`${d.domain} is not verified yet`}>
          It keeps routing sign-ins until {formatExact(new Date(new Date(d.created_at).getTime() + LEGACY_DAYS * 86_400_000).toISOString())}{" "}
          because this provider had it before domains were verified. Publish its DNS record and verify it on {link}.
        </Alert>
      ))}
    </div>
  );
}
