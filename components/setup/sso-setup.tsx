"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { SETUP_IDPS, type SetupIdp } from "@/server/setup-links/schemas";
import type { SsoProvider } from "@/server/sso/schemas";
import { messageOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { cx } from "../ui/cx";
import { formatExact } from "../ui/relative-time";
import { IDP_GUIDES, SAML_ATTRIBUTES } from "./idp-guides";
import { Step, TestOutcome, ValueRow } from "./setup-parts";
import { EnableStep, MetadataForm, MetadataStep, TestStep } from "./sso-steps";

interface SsoState {
  idp: SetupIdp | null;
  updating: boolean;
  sp: { entity_id: string; acs_url: string; metadata_url: string; redirect_uri: string } | null;
  provider: SsoProvider | null;
  verified_domains: string[];
}

/**
 * The guided SSO setup: pick the IdP, paste our values there, bring back its metadata, test, enable.
 * A link made for an existing provider opens at its metadata update (a new signing certificate).
 */
export function SsoSetup({ state }: { state: SsoState }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.setup.state.queryKey() });
  const choose = useMutation(trpc.setup.sso.chooseIdp.mutationOptions({ onSuccess: refresh }));
  const lastTest = useQuery({
    ...trpc.setup.sso.lastTest.queryOptions(),
    enabled: state.provider !== null,
    refetchInterval: (q) => (q.state.data?.status === "pending" ? 2000 : false),
  });
  const { idp, provider } = state;
  const guide = idp ? IDP_GUIDES[idp] : null;
  const tested = lastTest.data?.status === "succeeded";

  if (state.updating && provider) return <CertificateUpdate provider={provider} lastTest={lastTest.data ?? null} onSaved={refresh} />;

  return (
    <ol className="mt-2" aria-label="Steps">
      <Step n={1} title="Your identity provider" state={idp ? "done" : "current"} testId="step-idp">
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-4" role="group" aria-label="Identity providers">
          {SETUP_IDPS.map((option) => (
            <button
              key={option}
              type="button"
              disabled={provider !== null || choose.isPending}
              aria-pressed={idp === option}
              onClick={() => choose.mutate({ idp: option })}
              className={cx(
                "rounded-md px-3 py-2.5 text-left text-sm font-medium ring-1 ring-inset",
                idp === option
                  ? "bg-indigo-50 text-indigo-800 ring-indigo-400"
                  : "bg-white text-slate-800 ring-slate-300 hover:bg-slate-50",
                "disabled:cursor-not-allowed disabled:opacity-70",
              )}
            >
              {IDP_GUIDES[option].name}
            </button>
          ))}
        </div>
        {choose.error ? <Alert tone="danger">{messageOf(choose.error)}</Alert> : null}
      </Step>
      <Step n={2} title={guide ? `In ${guide.name}` : "In your identity provider"} state={!idp ? "ahead" : provider ? "done" : "current"}>
        {guide && state.sp ? (
          <>
            <ol className="list-decimal space-y-1.5 pl-5 text-sm text-slate-700">
              {guide.steps.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ol>
            <dl className="space-y-2">
              {guide.protocol === "saml" ? (
                <>
                  <ValueRow label={guide.labels.acs!} value={state.sp.acs_url} testId="setup-acs-url" />
                  <ValueRow label={guide.labels.entity!} value={state.sp.entity_id} testId="setup-entity-id" />
                </>
              ) : (
                <ValueRow label={guide.labels.redirect!} value={state.sp.redirect_uri} testId="setup-redirect-uri" />
              )}
            </dl>
            {guide.protocol === "saml" ? (
              <div className="text-sm text-slate-700">
                <p className="font-medium text-slate-900">Attributes to send</p>
                <ul className="mt-1 space-y-0.5">
                  {SAML_ATTRIBUTES.map((a) => (
                    <li key={a.name}>
                      <code className="font-mono text-xs text-slate-900">{a.name}</code>: {a.value}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </>
        ) : null}
      </Step>
      <Step n={3} title="Back here: its metadata" state={!idp ? "ahead" : provider ? "done" : "current"}>
        {idp && guide ? <MetadataStep idp={idp} hint={guide.metadata} provider={provider} onSaved={refresh} /> : null}
      </Step>
      <Step n={4} title="Test sign-in" state={!provider ? "ahead" : tested ? "done" : "current"} testId="step-test">
        <TestStep lastTest={lastTest.data ?? null} />
      </Step>
      <Step n={5} title="Turn it on" state={!tested ? "ahead" : provider?.enabled ? "done" : "current"} testId="step-enable">
        {provider ? <EnableStep provider={provider} verified={state.verified_domains} onDone={refresh} /> : null}
      </Step>
    </ol>
  );
}

/** A link for an existing provider: bring its new metadata (a rotated certificate), then test. */
function CertificateUpdate({
  provider,
  lastTest,
  onSaved,
}: {
  provider: SsoProvider;
  lastTest: Parameters<typeof TestOutcome>[0]["result"] | null;
  onSaved: () => void;
}) {
  const trpc = useTRPC();
  const reread = useMutation(trpc.setup.sso.refresh.mutationOptions({ onSuccess: onSaved }));
  const expires = provider.metadata.certificate_expires_at;
  return (
    <ol className="mt-2" aria-label="Steps">
      <Step n={1} title={`Update ${provider.name}'s certificate`} state="current" testId="step-certificate">
        <p className="text-sm text-slate-700" data-testid="setup-certificate-expiry">
          {expires
            ? `Its signing certificate ${new Date(expires) < new Date() ? "expired" : "expires"} on ${formatExact(expires)}.`
            : "No signing certificate is known yet."}{" "}
          Add a new certificate in your identity provider, then give us its metadata again.
        </p>
        {provider.metadata_source === "url" ? (
          <div className="space-y-2">
            {reread.error ? <Alert tone="danger">{messageOf(reread.error)}</Alert> : null}
            <Button variant="secondary" loading={reread.isPending} onClick={() => reread.mutate()}>
              Read the metadata URL again
            </Button>
          </div>
        ) : null}
        <MetadataForm
          idp="generic_saml"
          hint="Or upload the new metadata file (or give a new URL)."
          provider={provider}
          onSaved={onSaved}
        />
      </Step>
      <Step n={2} title="Test sign-in" state={lastTest?.status === "succeeded" ? "done" : "current"} testId="step-test">
        <TestStep lastTest={lastTest} />
      </Step>
    </ol>
  );
}
