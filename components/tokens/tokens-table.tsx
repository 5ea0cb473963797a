"use client";

import type { ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { tokenDisplay, type ApiToken } from "@/server/tokens/schemas";
import { useTRPC } from "../trpc";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { cx } from "../ui/cx";
import { EmptyState } from "../ui/empty-state";
import { actionsColumn, keepPage, ListTable, pageInput, type ListColumn } from "../ui/list-table";
import type { TablePosition } from "../ui/pagination";
import { formatExact, RelativeTime, useNow } from "../ui/relative-time";
import { Skeleton } from "../ui/skeleton";
import { Td, Tr } from "../ui/table";
import { KeyIcon } from "../icons";

export const TOKENS_PAGE_SIZE = 20;

const day = new Intl.DateTimeFormat("en", { dateStyle: "medium" });

interface TokensTableProps {
  position: TablePosition;
  onMove: (position: TablePosition) => void;
  /** A tenant's name for a token's scope (null when unknown to the console). */
  tenantName: (tenantId: string) => string | null;
  onRevoke: (token: ApiToken) => void;
  emptyAction?: ReactNode;
  highlightId?: string | null;
}

const COLUMNS: ListColumn[] = [
  { header: "Name" },
  { header: "Scope" },
  { header: "Expires", className: "hidden sm:table-cell" },
  { header: "Last used", className: "hidden md:table-cell" },
  { header: "Created", className: "hidden lg:table-cell" },
  actionsColumn(),
];

function Expiry({ iso }: { iso: string | null }) {
  const now = useNow();
  if (!iso) return <span className="text-slate-600">Never</span>;
  const expired = now !== null && Date.parse(iso) <= now;
  return (
    <span title={formatExact(iso)} className="inline-flex items-center gap-2">
      {day.format(new Date(iso))}
      {expired ? <Badge tone="danger">Expired</Badge> : null}
    </span>
  );
}

/** The signed-in user's API tokens (revoked ones are gone), newest first. */
export function TokensTable({ position, onMove, tenantName, onRevoke, emptyAction, highlightId }: TokensTableProps) {
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.tokens.list.queryOptions(pageInput(position, TOKENS_PAGE_SIZE)), ...keepPage });

  return (
    <ListTable
      label="API tokens"
      columns={COLUMNS}
      query={query}
      position={position}
      onMove={onMove}
      pageSize={TOKENS_PAGE_SIZE}
      loading={{ span: <Skeleton className="h-4 w-2/3" /> }}
      empty={
        <EmptyState
          icon={<KeyIcon className="size-6" />}
          title="No API tokens"
          description="Tokens let scripts and services call the REST API as you. Create one for each place you use it, so you can revoke them one by one."
          action={emptyAction}
        />
      }
      pastEnd={{ noun: "tokens", reason: "revoked" }}
      renderRow={(token) => (
        <Tr key={token.id} data-testid="token-row" className={cx(token.id === highlightId && "bg-indigo-50/60")}>
          <Td className="w-full max-w-0">
            <span className="block truncate font-medium text-slate-900" title={token.name}>
              {token.name}
            </span>
            <code
              className="font-mono text-xs text-slate-600"
              data-testid="token-display"
              title="The token's prefix and last four characters"
            >
              {tokenDisplay(token)}
            </code>
          </Td>
          <Td>
            <span className="inline-flex items-center gap-2">
              {token.tenant_id ? (
                <span className="max-w-40 truncate" title={tenantName(token.tenant_id) ?? token.tenant_id}>
                  {tenantName(token.tenant_id) ?? <code className="font-mono text-xs">{token.tenant_id.slice(0, 8)}…</code>}
                </span>
              ) : (
                <span className="text-slate-600">All your tenants</span>
              )}
              {token.read_only ? <Badge>Read-only</Badge> : null}
            </span>
          </Td>
          <Td className="hidden sm:table-cell">
            <Expiry iso={token.expires_at} />
          </Td>
          <Td className="hidden text-slate-600 md:table-cell">
            {token.last_used_at ? <RelativeTime iso={token.last_used_at} /> : "Never"}
          </Td>
          <Td className="hidden text-slate-600 lg:table-cell">
            <RelativeTime iso={token.created_at} />
          </Td>
          <Td className="text-right">
            <Button variant="secondary" size="sm" onClick={() => onRevoke(token)} aria-label={`Revoke ${token.name}`}>
              Revoke
            </Button>
          </Td>
        </Tr>
      )}
    />
  );
}
