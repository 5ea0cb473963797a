"use client";

import type { ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { messageOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Badge } from "../ui/badge";
import { Card, CardBody, CardHeader } from "../ui/card";
import { PageHeader } from "../ui/page-header";
import { Skeleton } from "../ui/skeleton";

function Item({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-slate-600">{term}</dt>
      <dd className="mt-1 text-sm break-words text-slate-900">{children}</dd>
    </div>
  );
}

const none = <span className="text-slate-500">Not sent</span>;

/** What a Test sign-in received from the IdP, or the exact reason it was refused. */
export function TestResultView({ tenantId, providerId, requestId }: { tenantId: string; providerId: string; requestId: string }) {
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.ssoSignIn.testResult.queryOptions({ tenant_id: tenantId, provider_id: providerId, request_id: requestId }),
    // Still at the IdP (another tab): look again until it comes back.
    refetchInterval: (q) => (q.state.data?.status === "pending" ? 2000 : false),
  });
  const back = (
    <a href={`/tenants/${tenantId}/sso`} className="font-medium text-indigo-700 hover:underline">
      ← SSO providers
    </a>
  );
  const result = query.data;
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader eyebrow={back} title="Test sign-in" description="What the identity provider sent back. No user or session was created." />
      {query.isPending ? <Skeleton className="h-40" /> : null}
      {query.error ? (
        <Alert tone="danger" title="The result could not be loaded">
          {messageOf(query.error)}
        </Alert>
      ) : null}
      {result?.status === "pending" ? <Alert title="Waiting for the identity provider">Finish signing in in the other tab.</Alert> : null}
      {result?.status === "failed" ? (
        <Alert
          tone="danger"
          title={
            <>
              Sign-in refused: <code className="font-mono">{result.reason}</code>
            </>
          }
        >
          <p data-testid="test-failure-detail">{result.detail}</p>
        </Alert>
      ) : null}
      {result?.status === "succeeded" && result.profile ? (
        <div className="space-y-6">
          <Alert tone="success" title="Sign-in succeeded">
            {result.domain_matches
              ? "This person could sign in to the console."
              : "The email's domain is not one of this provider's domains: console sign-in would refuse it (domain_mismatch)."}
          </Alert>
          <Card>
            <CardHeader title="Profile" description="Normalised from the claims or attributes the IdP sent." />
            <CardBody>
              <dl className="grid gap-x-6 gap-y-4 sm:grid-cols-2" data-testid="test-profile">
                <Item term="Subject (id)">
                  <code className="font-mono text-xs">{result.profile.id}</code>
                </Item>
                <Item term="Email">{result.profile.email}</Item>
                <Item term="First name">{result.profile.first_name ?? none}</Item>
                <Item term="Last name">{result.profile.last_name ?? none}</Item>
                <Item term="Groups">
                  {result.profile.groups.length ? (
                    <span className="flex flex-wrap gap-1">
                      {result.profile.groups.map((g) => (
                        <Badge key={g}>{g}</Badge>
                      ))}
                    </span>
                  ) : (
                    none
                  )}
                </Item>
                <Item term="Identity provider">
                  <code className="font-mono text-xs break-all">{result.profile.issuer}</code>
                </Item>
              </dl>
            </CardBody>
          </Card>
          <Card>
            <CardHeader title="Raw attributes" description="Everything received, as sent." />
            <CardBody>
              <pre className="overflow-x-auto rounded-md bg-code p-4 text-xs text-code-fg" data-testid="test-raw-attributes">
                {JSON.stringify(result.profile.raw_attributes, null, 2)}
              </pre>
            </CardBody>
          </Card>
        </div>
      ) : null}
    </div>
  );
}
