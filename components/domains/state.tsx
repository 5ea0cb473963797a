import type { Domain, DomainState } from "@/server/domains/schemas";
import { Badge } from "../ui/badge";

const LABELS: Record<DomainState, { text: string; tone: "warning" | "success" | "danger" }> = {
  pending: { text: "Pending", tone: "warning" },
  verified: { text: "Verified", tone: "success" },
  failed: { text: "Failed", tone: "danger" },
};

export function DomainStateBadge({ domain }: { domain: Domain }) {
  const { text, tone } = LABELS[domain.state];
  return (
    <Badge tone={tone}>
      <span data-testid="domain-state" data-state={domain.state}>
        {text}
        {domain.state === "verified" && domain.verification_method === "override" ? " by an operator" : ""}
      </span>
    </Badge>
  );
}

/** What "Verify now" came to, as a toast says it. */
export function describeCheck(domain: Domain): { tone: "success" | "danger" | "info"; text: string } {
  if (domain.state === "verified" && domain.last_check_result === "match")
    return { tone: "success", text: `${domain.domain} is verified.` };
  if (domain.state === "verified")
    return { tone: "info", text: `${domain.domain} stays verified: ${domain.last_error ?? "no DNS check was made"}` };
  if (domain.last_check_result === "unavailable")
    return { tone: "info", text: `${domain.domain} could not be checked: ${domain.last_error}` };
  return { tone: "danger", text: `${domain.domain} is not verified yet: ${domain.last_error ?? "the record was not found"}.` };
}
