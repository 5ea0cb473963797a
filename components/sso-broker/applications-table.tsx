"use client";

import type { ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import type { SsoApplication } from "@/server/sso/broker/schemas";
import { useTRPC } from "../trpc";
import { Button } from "../ui/button";
import { cx } from "../ui/cx";
import { EmptyState } from "../ui/empty-state";
import { actionsColumn, keepPage, ListTable, pageInput, type ListColumn } from "../ui/list-table";
import type { TablePosition } from "../ui/pagination";
import { RelativeTime } from "../ui/relative-time";
import { Skeleton } from "../ui/skeleton";
import { Td, Tr } from "../ui/table";
import { KeyIcon } from "../icons";

export const APPLICATIONS_PAGE_SIZE = 20;

const COLUMNS: ListColumn[] = [
  { header: "Name" },
  { header: "Client ID", className: "hidden sm:table-cell" },
  { header: "Redirect URIs", className: "hidden md:table-cell" },
  { header: "Created", className: "hidden lg:table-cell" },
  actionsColumn(),
];

interface ApplicationsTableProps {
  position: TablePosition;
  onMove: (position: TablePosition) => void;
  onRotate: (application: SsoApplication) => void;
  onDelete: (application: SsoApplication) => void;
  emptyAction?: ReactNode;
  highlightId?: string | null;
}

/** The OAuth broker's applications, newest first. */
export function ApplicationsTable({ position, onMove, onRotate, onDelete, emptyAction, highlightId }: ApplicationsTableProps) {
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.ssoApplications.list.queryOptions(pageInput(position, APPLICATIONS_PAGE_SIZE)), ...keepPage });

  return (
    <ListTable
      label="Applications"
      columns={COLUMNS}
      query={query}
      position={position}
      onMove={onMove}
      pageSize={APPLICATIONS_PAGE_SIZE}
      loading={{ span: <Skeleton className="h-4 w-2/3" /> }}
      empty={
        <EmptyState
          icon={<KeyIcon className="size-6" />}
          title="No applications"
          description="Register each of the platform's apps that signs people in through their company's SSO (the OAuth 2.0 broker)."
          action={emptyAction}
        />
      }
      pastEnd={{ noun: "applications", reason: "deleted" }}
      renderRow={(application) => (
        <Tr key={application.id} data-testid="application-row" className={cx(application.id === highlightId && "bg-indigo-50/60")}>
          <Td className="w-full max-w-0">
            <span className="block truncate font-medium text-slate-900" title={application.name}>
              {application.name}
            </span>
          </Td>
          <Td className="hidden sm:table-cell">
            <code className="font-mono text-xs text-slate-700">{application.client_id}</code>
          </Td>
          <Td className="hidden max-w-64 md:table-cell">
            <ul className="space-y-0.5">
              {application.redirect_uris.map((uri) => (
                <li key={uri} className="truncate font-mono text-xs text-slate-700" title={uri}>
                  {uri}
                </li>
              ))}
            </ul>
          </Td>
          <Td className="hidden text-slate-600 lg:table-cell">
            <RelativeTime iso={application.created_at} />
          </Td>
          <Td className="text-right whitespace-nowrap">
            <span className="inline-flex gap-2">
              <Button
                variant="secondary"
                size="sm"
                onClick={() => onRotate(application)}
                aria-label={`Rotate the secret of ${application.name}`}
              >
                Rotate secret
              </Button>
              <Button variant="secondary" size="sm" onClick={() => onDelete(application)} aria-label={`Delete ${application.name}`}>
                Delete
              </Button>
            </span>
          </Td>
        </Tr>
      )}
    />
  );
}
