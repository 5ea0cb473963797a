"use client";

import { useState } from "react";
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import type { ExpiringCertificate } from "@/server/sso/certificate-schemas";
import { consoleUrl } from "../console/urls";
import { useTRPC } from "../trpc";
import { Badge } from "../ui/badge";
import { Card, CardHeader } from "../ui/card";
import { EmptyState } from "../ui/empty-state";
import { keepPage, ListTable, pageInput, type ListColumn } from "../ui/list-table";
import { PageHeader } from "../ui/page-header";
import { FIRST_PAGE, type TablePosition } from "../ui/pagination";
import { Select } from "../ui/select";
import { Skeleton } from "../ui/skeleton";
import { Td, Tr } from "../ui/table";
import { ShieldIcon } from "../icons";
import { CERTIFICATE_URGENT_DAYS, CERTIFICATE_WARNING_DAYS } from "./metadata-status";

const PAGE_SIZE = 20;
const WINDOWS = [7, CERTIFICATE_WARNING_DAYS, 90] as const;
const DATE = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" });

const COLUMNS: ListColumn[] = [
  { header: "Provider" },
  { header: "Tenant", className: "hidden sm:table-cell" },
  { header: "Certificate ends" },
];

function DaysLeft({ days }: { days: number }) {
  if (days < 0) return <Badge tone="danger">Expired</Badge>;
  const text = days === 0 ? "Today" : days === 1 ? "Tomorrow" : `In ${days} days`;
  return <Badge tone={days < CERTIFICATE_URGENT_DAYS ? "danger" : days < CERTIFICATE_WARNING_DAYS ? "warning" : "neutral"}>{text}</Badge>;
}

/** Operators and support: every tenant's enabled SAML providers whose signing certificate ends soon, soonest first. */
export function ExpiringCertificatesView() {
  const trpc = useTRPC();
  const [within, setWithin] = useState<number>(CERTIFICATE_WARNING_DAYS);
  const [position, setPosition] = useState<TablePosition>(FIRST_PAGE);
  const query = useQuery({
    ...trpc.ssoCertificates.expiring.queryOptions({ ...pageInput(position, PAGE_SIZE), within_days: within }),
    ...keepPage,
  });

  return (
    <>
      <PageHeader
        title="Expiring certificates"
        description="SAML providers of every tenant whose signing certificate ends soon. Their tenants are told too (a banner on the SSO page and the sso_provider.certificate_expiring event at 30 days, 7 days and expiry)."
      />
      <Card aria-labelledby="certificates-title">
        <CardHeader
          as="h2"
          title={<span id="certificates-title">Ending within {within} days</span>}
          actions={
            <Select
              aria-label="Show certificates ending"
              value={String(within)}
              onChange={(event) => {
                setWithin(Number(event.target.value));
                setPosition(FIRST_PAGE);
              }}
              className="sm:w-44"
            >
              {WINDOWS.map((days) => (
                <option key={days} value={days}>
                  Within {days} days
                </option>
              ))}
            </Select>
          }
        />
        <ListTable<ExpiringCertificate, unknown>
          label="Expiring certificates"
          columns={COLUMNS}
          query={query}
          position={position}
          onMove={setPosition}
          pageSize={PAGE_SIZE}
          loading={{ span: <Skeleton className="h-4 w-2/3" /> }}
          empty={
            <EmptyState
              icon={<ShieldIcon className="size-6" />}
              title="No certificate ends that soon"
              description={`No enabled SAML provider has a signing certificate ending within ${within} days, nor an expired one.`}
            />
          }
          pastEnd={{ noun: "certificates", reason: "renewed" }}
          renderRow={(row) => (
            <Tr key={row.provider_id} data-testid="expiring-certificate-row">
              <Td className="w-full max-w-0">
                <Link
                  href={consoleUrl.sso(row.tenant_id)}
                  className="block truncate font-medium text-indigo-700 hover:underline"
                  title={`${row.provider_name}: the SSO page of ${row.tenant_name}`}
                >
                  {row.provider_name}
                </Link>
                <span className="block truncate text-xs text-slate-600 sm:hidden">{row.tenant_name}</span>
              </Td>
              <Td className="hidden max-w-64 sm:table-cell">
                <span className="block truncate text-slate-700" title={row.tenant_name}>
                  {row.tenant_name}
                </span>
              </Td>
              <Td className="whitespace-nowrap">
                <span className="inline-flex flex-col items-start gap-1">
                  <time dateTime={row.certificate_expires_at} className="text-slate-700">
                    {DATE.format(new Date(row.certificate_expires_at))}
                  </time>
                  <DaysLeft days={row.days_left} />
                </span>
              </Td>
            </Tr>
          )}
        />
      </Card>
    </>
  );
}
