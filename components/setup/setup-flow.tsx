"use client";

import { useQuery } from "@tanstack/react-query";
import { messageOf, statusOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { formatExact } from "../ui/relative-time";
import { Skeleton } from "../ui/skeleton";
import { SsoSetup } from "./sso-setup";
import { DomainSetup } from "./domain-setup";
import { DirectorySetup } from "./directory-setup";

const TITLES = {
  sso: "Set up single sign-on",
  directory_sync: "Connect your directory",
  domain_verification: "Verify your email domain",
} as const;

/** The guided setup a link opened: its intent's steps, for its tenant, until the session ends. */
export function SetupFlow() {
  const trpc = useTRPC();
  const state = useQuery(trpc.setup.state.queryOptions());
  if (state.isPending) return <Skeleton className="h-64" />;
  if (state.error) {
    return (
      <Alert tone="danger" title={statusOf(state.error) === 401 ? "This setup session has ended" : "The setup could not be loaded"}>
        {statusOf(state.error) === 401 ? "Open the link you were sent again, or ask for a new one." : messageOf(state.error)}
      </Alert>
    );
  }
  const data = state.data;
  return (
    <div className="space-y-6">
      <header>
        <p className="text-sm font-medium text-indigo-700">{data.tenant.name}</p>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight text-slate-900">{TITLES[data.intent]}</h1>
        <p className="mt-2 text-sm text-slate-600">
          {data.created_by_email ? `${data.created_by_email} asked you to do this. ` : ""}
          This page works until <time dateTime={data.session_expires_at}>{formatExact(data.session_expires_at)}</time>; everything you do
          here is recorded in their audit log.
        </p>
      </header>
      {data.sso ? <SsoSetup state={data.sso} /> : null}
      {data.directory ? <DirectorySetup initial={data.directory.directory} /> : null}
      {data.intent === "domain_verification" ? <DomainSetup /> : null}
    </div>
  );
}
