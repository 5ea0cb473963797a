"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { Card, CardHeader } from "../ui/card";
import { Checkbox } from "../ui/checkbox";
import { EmptyState } from "../ui/empty-state";
import { keepPage, ListTable, type ListColumn } from "../ui/list-table";
import { FIRST_PAGE, type TablePosition } from "../ui/pagination";
import { RelativeTime } from "../ui/relative-time";
import { Skeleton } from "../ui/skeleton";
import { Td, Tr } from "../ui/table";
import { ScrollIcon } from "../icons";
import { PROVIDER_STEPS } from "./provider-steps";
import { SCIM_REQUESTS_PAGE_SIZE, scimRequestsInput } from "./queries";
import { RequestStatus } from "./status";
import type { Directory, ScimRequestEntry } from "./types";

/** While the page is open the log asks again this often: an admin watches it during a test sync. */
const POLL_MS = 15_000;

const COLUMNS: ListColumn[] = [
  { header: "Time", skeleton: <Skeleton className="h-4 w-20" /> },
  {
    header: "Request",
    skeleton: (
      <>
        <Skeleton className="h-4 w-56" />
        <Skeleton className="mt-1.5 h-3 w-40" />
      </>
    ),
  },
  { header: "Status", skeleton: <Skeleton className="h-5 w-12" /> },
  { header: "Duration", className: "hidden sm:table-cell", skeleton: <Skeleton className="h-4 w-12" /> },
];

function RequestRow({ entry }: { entry: ScimRequestEntry }) {
  return (
    <Tr data-testid="scim-request-row" data-status={entry.status}>
      <Td className="align-top text-xs">
        <RelativeTime iso={entry.created_at} />
      </Td>
      <Td className="w-full max-w-0 align-top">
        <p className="font-mono text-xs whitespace-normal break-all text-slate-900">
          <span className="font-semibold">{entry.method}</span> {entry.path}
        </p>
        <p className="text-xs whitespace-normal text-slate-600">
          {entry.summary}
          {/* The SCIM error type, unless the summary names it already. */}
          {entry.scim_type && !entry.summary.includes(entry.scim_type) ? <span className="font-mono"> ({entry.scim_type})</span> : null}
        </p>
      </Td>
      <Td className="align-top">
        <RequestStatus entry={entry} />
      </Td>
      <Td className="hidden align-top text-xs tabular-nums sm:table-cell">{entry.duration_ms} ms</Td>
    </Tr>
  );
}

/**
 * The SCIM requests the IdP made (kept 30 days), newest first: what an admin reads when the IdP
 * says provisioning failed. Failed requests only, at first, when there are any.
 */
export function RequestsSection({
  tenantId,
  directory,
  canRead,
  loadingRole,
}: {
  tenantId: string;
  directory: Directory;
  /** The log is for tenant admins (it names people and what was refused). */
  canRead: boolean;
  loadingRole: boolean;
}) {
  const trpc = useTRPC();
  const [choice, setChoice] = useState<boolean | null>(null);
  const [position, setPosition] = useState<TablePosition>(FIRST_PAGE);
  // The first page of failures decides the start: failures first when there are any.
  const failures = useQuery({
    ...trpc.directories.listRequests.queryOptions(scimRequestsInput(tenantId, directory.id, true)),
    enabled: canRead,
    refetchInterval: POLL_MS,
  });
  const failedOnly = choice ?? (failures.data ? failures.data.count > 0 : true);
  const query = useQuery({
    ...trpc.directories.listRequests.queryOptions(scimRequestsInput(tenantId, directory.id, failedOnly, position.cursor)),
    ...keepPage,
    enabled: canRead,
    refetchInterval: POLL_MS,
  });
  const idp = PROVIDER_STEPS[directory.provider].name;

  const header = (
    <CardHeader
      as="h3"
      title={<span id="scim-requests-title">Sync activity</span>}
      description={`Every SCIM request from ${idp} in the last 30 days: method, path, our answer and why it failed.`}
    />
  );
  if (!canRead) {
    return (
      <Card aria-labelledby="scim-requests-title">
        {header}
        {loadingRole ? (
          <div className="p-6">
            <Skeleton className="h-4 w-1/2" />
          </div>
        ) : (
          <EmptyState
            icon={<ScrollIcon className="size-6" />}
            title="Only tenant admins can read the sync activity"
            description="Ask an admin of this tenant if a sync went wrong."
          />
        )}
      </Card>
    );
  }

  const failedCount = failures.data?.count ?? 0;
  return (
    <Card aria-labelledby="scim-requests-title">
      {header}
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 px-4 py-3 sm:px-6">
        <Checkbox
          id="scim-requests-failed"
          label="Failed requests only"
          checked={failedOnly}
          onChange={(event) => {
            setChoice(event.target.checked);
            setPosition(FIRST_PAGE);
          }}
        />
        {failures.data ? (
          <p className="text-sm text-slate-600" data-testid="failed-count">
            {failedCount === 0 ? "No failed requests" : `${failedCount} failed ${failedCount === 1 ? "request" : "requests"}`}
          </p>
        ) : null}
      </div>
      <ListTable
        label="SCIM requests"
        columns={COLUMNS}
        query={query}
        position={position}
        onMove={setPosition}
        pageSize={SCIM_REQUESTS_PAGE_SIZE}
        empty={
          failedOnly ? (
            <EmptyState title="No failed requests" description={`Every request ${idp} made in the last 30 days succeeded.`} />
          ) : (
            <EmptyState
              icon={<ScrollIcon className="size-6" />}
              title={`No requests from ${idp} yet`}
              description={
                directory.enabled
                  ? "Paste the SCIM URL and token into it (see Overview) and start provisioning; its requests show up here."
                  : "The directory is disabled: enable it, then start provisioning in the IdP."
              }
            />
          )
        }
        pastEnd={{ noun: "requests", reason: "removed after 30 days" }}
        renderRow={(entry) => <RequestRow key={entry.id} entry={entry} />}
      />
    </Card>
  );
}
