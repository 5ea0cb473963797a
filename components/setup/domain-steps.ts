/**
 * What the guided domain verification shows, as pure functions of the tenant's domains: which
 * domain the steps are about (the one just added, else the newest), whether step 2 is done, and
 * what a verified domain's line says.
 */
import type { Domain } from "@/server/domains/schemas";

type DomainState = Pick<Domain, "id" | "state" | "created_at" | "verification_method">;

/** The domain the steps follow: the one added on this page, else the tenant's newest. */
export function focusDomain<D extends DomainState>(domains: D[], addedId: string | null): D | null {
  const added = addedId ? domains.find((d) => d.id === addedId) : undefined;
  if (added) return added;
  return domains.reduce<D | null>((newest, d) => (!newest || d.created_at > newest.created_at ? d : newest), null);
}

/** Step 2 (publish the record, verify) is done when the domain the steps follow is verified, not when any domain is. */
export function recordStepState(domains: DomainState[], addedId: string | null): "ahead" | "current" | "done" {
  const focus = focusDomain(domains, addedId);
  if (!focus) return "ahead";
  return focus.state === "verified" ? "done" : "current";
}

/** A verified domain's line: its TXT record must stay when DNS verified it; an operator's word needs none. */
export function verifiedNote(domain: Pick<Domain, "verification_method">): string {
  return domain.verification_method === "override"
    ? "Verified by the platform operator, without a DNS record: nothing to publish."
    : "Verified. The TXT record must stay: it is checked again daily, and the domain stops being verified if the record is gone.";
}
