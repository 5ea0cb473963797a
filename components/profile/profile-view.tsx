"use client";

import type { ReactNode } from "react";
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { consoleUrl } from "../console/urls";
import { messageOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { PageHeader } from "../ui/page-header";
import { Skeleton } from "../ui/skeleton";
import { ChangePasswordForm } from "./change-password-form";
import { SessionsCard } from "./sessions-card";
import { TwoFactorCard } from "./two-factor-card";

const PLATFORM_ROLE = {
  operator: { label: "Operator", help: "Creates tenants and acts as admin in every tenant." },
  support: { label: "Support", help: "Can look at every tenant, but not change them." },
} as const;

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 px-4 py-3.5 sm:grid-cols-4 sm:gap-4 sm:px-6">
      <dt className="text-sm font-medium text-slate-600">{term}</dt>
      <dd className="min-w-0 text-sm break-words text-slate-900 sm:col-span-3">{children}</dd>
    </div>
  );
}

function Account() {
  const trpc = useTRPC();
  const me = useQuery(trpc.account.me.queryOptions({}));

  if (me.isPending) {
    return (
      <Card aria-busy="true">
        <div className="space-y-4 p-6">
          <Skeleton className="h-4 w-1/2" />
          <Skeleton className="h-4 w-1/3" />
          <Skeleton className="h-4 w-2/3" />
        </div>
      </Card>
    );
  }
  if (me.isError) {
    return (
      <Alert
        tone="danger"
        title="Your account could not be loaded"
        action={
          <Button variant="secondary" size="sm" onClick={() => me.refetch()} loading={me.isFetching}>
            Try again
          </Button>
        }
      >
        {messageOf(me.error)}
      </Alert>
    );
  }

  const { user, memberships } = me.data;
  const platform = user.platform_role ? PLATFORM_ROLE[user.platform_role] : null;
  return (
    <Card aria-labelledby="account-title">
      <CardHeader title={<span id="account-title">Account</span>} />
      <dl className="divide-y divide-slate-200">
        <Row term="Email">
          <span data-testid="profile-email">{user.email}</span>
        </Row>
        <Row term="Name">{user.name ?? <span className="text-slate-600">Not set</span>}</Row>
        <Row term="Platform role">
          {platform ? (
            <>
              <Badge tone="accent">{platform.label}</Badge>
              <span className="ml-2 text-slate-600">{platform.help}</span>
            </>
          ) : (
            <span className="text-slate-600">None: you have the roles of your memberships below.</span>
          )}
        </Row>
        <Row term="Memberships">
          {memberships.length === 0 ? (
            <span className="text-slate-600">You are not a member of any tenant.</span>
          ) : (
            <ul className="space-y-2" aria-label="Memberships">
              {memberships.map((m) => (
                <li key={m.tenant_id} className="flex items-center gap-2">
                  <Link
                    href={consoleUrl.tenant(m.tenant_id)}
                    className="min-w-0 truncate font-medium text-slate-900 hover:text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
                  >
                    {m.tenant_name}
                  </Link>
                  <Badge tone={m.role === "admin" ? "accent" : "neutral"}>{m.role === "admin" ? "Admin" : "Viewer"}</Badge>
                </li>
              ))}
            </ul>
          )}
        </Row>
      </dl>
    </Card>
  );
}

/** Your own account: who you are, where you have access, where you are signed in, and changing your password. */
export function ProfileView() {
  return (
    <>
      <PageHeader title="Profile" description="Your account, where it has access and where it is signed in." />
      <div className="space-y-6">
        <Account />
        <TwoFactorCard />
        <SessionsCard />
        <ChangePasswordForm />
      </div>
    </>
  );
}
