"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { Badge } from "../ui/badge";
import { Spinner } from "../ui/spinner";

/** Whether the tenant's hash chain is intact: Checking… / Verified ✓ N events / Broken at #seq. */
export function ChainStatus({ tenantId }: { tenantId: string }) {
  const trpc = useTRPC();
  const verify = useQuery(trpc.audit.verify.queryOptions({ tenant_id: tenantId }, { staleTime: 60_000 }));

  let badge;
  if (verify.isPending) {
    badge = (
      <Badge>
        <Spinner className="mr-1.5 size-3" />
        Checking…
      </Badge>
    );
  } else if (verify.isError) {
    badge = <Badge tone="warning">Chain not checked</Badge>;
  } else if (verify.data.valid) {
    const n = verify.data.checked;
    badge = (
      <Badge tone="success">
        Verified <span aria-hidden="true">&nbsp;✓&nbsp;</span>
        {n.toLocaleString("en")} {n === 1 ? "event" : "events"}
      </Badge>
    );
  } else {
    badge = <Badge tone="danger">Broken at #{String(verify.data.first_invalid_sequence)}</Badge>;
  }

  // A <span>: it sits in the card header's description, a <p>. A <p> inside it would be closed by
  // the browser's HTML parser before React hydrates, and hydration would fail (React error #418).
  return (
    <span
      data-testid="chain-status"
      aria-live="polite"
      title="Each event's hash covers the one before it, so a changed or missing event breaks the chain."
      className="flex items-center gap-2 text-xs text-slate-600"
    >
      <span>Hash chain:</span>
      {badge}
    </span>
  );
}
