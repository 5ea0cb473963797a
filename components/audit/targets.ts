"use client";

import { useQuery } from "@tanstack/react-query";
import type { LinkableTargetType } from "@/server/audit/schemas";
import { consoleUrl } from "../console/urls";
import { useTRPC } from "../trpc";
import type { AuditEventView } from "./types";

/** The targets (as `type:id`) that still exist in the tenant. */
export type TargetLinks = ReadonlySet<string>;

const NO_LINKS: TargetLinks = new Set();

// The server's LINKABLE_TARGET_TYPES (its schemas module is not for the browser: it reads node:net).
const LINKABLE: readonly string[] = ["tenant", "user", "sso_provider", "webhook"] satisfies LinkableTargetType[];
const isLinkable = (type: string): type is LinkableTargetType => LINKABLE.includes(type);

/** The console page of a target that still exists, or null. */
export function targetHref(tenantId: string, target: { type: string; id: string }, links: TargetLinks): string | null {
  if (!links.has(`${target.type}:${target.id}`)) return null;
  switch (target.type) {
    case "tenant":
      return consoleUrl.tenant(target.id);
    case "user":
      return consoleUrl.members(tenantId);
    case "sso_provider":
      return consoleUrl.sso(tenantId);
    case "webhook":
      return consoleUrl.webhook(tenantId, target.id);
    default:
      return null;
  }
}

/** Which of the events' targets still exist (asked once per page of events; none while unknown). */
export function useTargetLinks(tenantId: string, events: AuditEventView[] | undefined): TargetLinks {
  const trpc = useTRPC();
  const targets = [
    ...new Map(
      (events ?? []).flatMap((e) => (e.target && isLinkable(e.target.type) ? [[`${e.target.type}:${e.target.id}`, e.target]] : [])),
    ).values(),
  ].map((t) => ({ type: t.type as LinkableTargetType, id: t.id }));
  const query = useQuery({
    ...trpc.audit.existingTargets.queryOptions({ tenant_id: tenantId, targets }),
    enabled: targets.length > 0,
    staleTime: 60_000,
  });
  if (!query.data) return NO_LINKS;
  return new Set(query.data.results.map((t) => `${t.type}:${t.id}`));
}
