"use client";

import { useMutation } from "@tanstack/react-query";
import type { SsoProvider } from "@/server/sso/schemas";
import { messageOf, useTRPC } from "../trpc";
import { Button } from "../ui/button";
import { CopyButton } from "../ui/copy-button";
import { useToast } from "../ui/toast";

function Row({ term, value }: { term: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-slate-600">{term}</dt>
      <dd className="mt-1 inline-flex max-w-full items-start gap-1 text-sm">
        <code className="font-mono text-xs break-all text-slate-800">{value}</code>
        <CopyButton value={value} label={`Copy the ${term.toLowerCase()}`} className="-my-1.5 shrink-0" />
      </dd>
    </div>
  );
}

/**
 * Our side of the provider (what the IdP admin pastes into their SAML or OIDC app) and, for
 * admins, Test sign-in: the flow runs in a new tab and its page shows what came back.
 */
export function SignInPanel({ tenantId, provider, canWrite }: { tenantId: string; provider: SsoProvider; canWrite: boolean }) {
  const trpc = useTRPC();
  const notify = useToast();
  const start = useMutation(trpc.ssoSignIn.startTest.mutationOptions());
  const sp = provider.sp;

  function testSignIn() {
    // Opened now, while the click still counts as a user gesture (popup blockers), then pointed.
    const tab = window.open("about:blank", "_blank");
    start.mutate(
      { tenant_id: tenantId, provider_id: provider.id },
      {
        onSuccess: (started) => {
          if (tab) tab.location.href = started.url;
          else window.location.href = started.url;
        },
        onError: (error) => {
          tab?.close();
          notify(<>Test sign-in could not start: {messageOf(error)}</>, "danger");
        },
      },
    );
  }

  return (
    <section aria-label="Service provider details" className="space-y-3 rounded-md border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 className="text-sm font-medium text-slate-900">
            Paste into your identity provider ({provider.protocol === "saml" ? "SAML app" : "OIDC app"})
          </h3>
          <p className="mt-0.5 text-xs text-slate-600">
            New people join this tenant as <span className="font-medium">{provider.default_role}</span> on their first sign-in through a
            domain with auto-join on (Domains page); others must be members already.
            {provider.protocol === "oidc" && !provider.client_id ? " Add the client ID from your IdP to enable sign-in." : null}
          </p>
        </div>
        {canWrite ? (
          <Button variant="secondary" size="sm" onClick={testSignIn} loading={start.isPending}>
            Test sign-in
          </Button>
        ) : null}
      </div>
      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
        {"redirect_uri" in sp ? (
          <Row term="Redirect URI" value={sp.redirect_uri} />
        ) : (
          <>
            <Row term="Entity ID" value={sp.entity_id} />
            <Row term="ACS URL" value={sp.acs_url} />
            <Row term="Metadata URL" value={sp.metadata_url} />
          </>
        )}
      </dl>
    </section>
  );
}
