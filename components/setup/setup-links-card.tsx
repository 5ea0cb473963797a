"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SetupIntent } from "@/server/auth/principal";
import { messageOf, useTRPC } from "../trpc";
import { useStepUp } from "../auth/step-up-dialog";
import { withStepUp } from "../auth/with-step-up";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Card, CardBody, CardHeader } from "../ui/card";
import { Select } from "../ui/select";
import { CopyButton } from "../ui/copy-button";
import { RelativeTime } from "../ui/relative-time";
import { SecretValue, ShownOncePanel } from "../ui/shown-once-panel";
import { Checkbox } from "../ui/checkbox";
import { ConfirmDialog } from "../ui/confirm-dialog";

const WHAT = {
  sso: "Send your customer's IT admin a link to a guided setup of their identity provider: no account needed, this tenant's SSO only, for 7 days.",
  domain_verification:
    "Send whoever runs the domain's DNS a link to add and verify it here: no account needed, this tenant's domains only, for 7 days.",
  directory_sync:
    "Send your customer's IT admin a link to connect their directory: no account needed, this tenant's Directory Sync only, for 7 days.",
} as const;

/**
 * A tenant admin's setup links of one intent: make one (step-up; its URL shown once), see the live
 * ones and revoke them. Shown to admins only (`canWrite`).
 */
export function SetupLinksCard({ tenantId, intent }: { tenantId: string; intent: SetupIntent }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { ensureSteppedUp, dialog } = useStepUp();
  const [made, setMade] = useState<{ id: string; url: string } | null>(null);
  // A directory_sync link's revocation asks first: its directory and token outlive it.
  const [revoking, setRevoking] = useState<{ id: string; directoryName: string } | null>(null);
  const [rotateToo, setRotateToo] = useState(true);
  const [outcome, setOutcome] = useState<{ message: string; token: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const links = useQuery(trpc.setupLinks.list.queryOptions({ tenant_id: tenantId, page_size: 100 }));
  const invalidate = () => queryClient.invalidateQueries(trpc.setupLinks.pathFilter());
  const create = useMutation(trpc.setupLinks.create.mutationOptions({ onSettled: invalidate }));
  const revoke = useMutation(trpc.setupLinks.delete.mutationOptions({ onSettled: invalidate }));
  const live = (links.data?.results ?? []).filter((l) => l.intent === intent && l.state === "active");
  // An sso link may be for one existing provider: it opens at that provider's metadata (certificate) update.
  const providers = useQuery({ ...trpc.tenantSso.list.queryOptions({ tenant_id: tenantId, page_size: 100 }), enabled: intent === "sso" });
  const [providerId, setProviderId] = useState("");
  const nameOf = (id: string | null) => providers.data?.results.find((p) => p.id === id)?.name;
  const directories = useQuery({
    ...trpc.directories.list.queryOptions({ tenant_id: tenantId, page_size: 100 }),
    enabled: intent === "directory_sync",
  });
  const directoryName = (id: string | null) => directories.data?.results.find((d) => d.id === id)?.name;

  function askRevoke(link: { id: string; directory_id: string | null }) {
    setError(null);
    setOutcome(null);
    if (link.directory_id) {
      setRotateToo(true);
      setRevoking({ id: link.id, directoryName: directoryName(link.directory_id) ?? "its directory" });
    } else revoke.mutate({ tenant_id: tenantId, setup_link_id: link.id }, { onError: (failure) => setError(messageOf(failure)) });
  }

  async function confirmRevoke() {
    if (!revoking) return;
    setError(null);
    try {
      const call = async () => {
        const answer = await revoke.mutateAsync({
          tenant_id: tenantId,
          setup_link_id: revoking.id,
          ...(rotateToo ? { rotate_directory_token: "true" as const } : {}),
        });
        setOutcome({ message: answer.directory?.message ?? "The link is revoked.", token: answer.directory_token });
      };
      const done = rotateToo
        ? await withStepUp(ensureSteppedUp, "revoke the link and rotate the directory's token", call)
        : (await call(), true);
      if (done) void queryClient.invalidateQueries(trpc.directories.pathFilter());
      setRevoking(null);
    } catch (failure) {
      setError(messageOf(failure));
      setRevoking(null);
    }
  }

  async function make() {
    setError(null);
    try {
      await withStepUp(ensureSteppedUp, "create a setup link", async () => {
        const link = await create.mutateAsync({ tenant_id: tenantId, intent, ...(providerId ? { sso_provider_id: providerId } : {}) });
        setMade({ id: link.id, url: link.url });
      });
    } catch (failure) {
      setError(messageOf(failure));
    }
  }

  return (
    <Card aria-labelledby={`setup-links-${intent}`} data-testid={`setup-links-${intent}`} className="mt-6">
      <CardHeader
        title={<span id={`setup-links-${intent}`}>Setup links</span>}
        description={WHAT[intent]}
        actions={
          <span className="flex flex-wrap items-center gap-2">
            {intent === "sso" && providers.data?.results.length ? (
              <Select
                className="w-auto"
                aria-label="What the link sets up"
                value={providerId}
                onChange={(event) => setProviderId(event.target.value)}
              >
                <option value="">A new provider</option>
                {providers.data.results.map((p) => (
                  <option key={p.id} value={p.id}>
                    Update {p.name}
                  </option>
                ))}
              </Select>
            ) : null}
            <Button variant="secondary" loading={create.isPending} onClick={() => void make()}>
              Create setup link
            </Button>
          </span>
        }
      />
      <CardBody className="space-y-4">
        {error ? <Alert tone="danger">{error}</Alert> : null}
        {outcome ? (
          outcome.token ? (
            <ShownOncePanel
              id="directory-token"
              title="The link is revoked; the directory has a new SCIM token"
              hint={outcome.message}
              focusKey={outcome.token}
              onDismiss={() => setOutcome(null)}
            >
              <div className="mt-3 flex items-start gap-2">
                <SecretValue value={outcome.token} testId="revoked-link-directory-token" />
                <CopyButton value={outcome.token} label="Copy SCIM token" />
              </div>
            </ShownOncePanel>
          ) : (
            <Alert tone="info">
              <span data-testid="revoked-link-outcome">The link is revoked. {outcome.message}</span>
            </Alert>
          )
        ) : null}
        {made ? (
          <ShownOncePanel
            id="setup-link"
            title="Send this link"
            hint="It is shown once. Whoever opens it can do this setup until it expires or you revoke it."
            focusKey={made.id}
            onDismiss={() => setMade(null)}
          >
            <div className="mt-3 flex items-start gap-2">
              <SecretValue value={made.url} testId="setup-link-url" />
              <CopyButton value={made.url} label="Copy setup link" />
            </div>
          </ShownOncePanel>
        ) : null}
        {live.length ? (
          <ul className="divide-y divide-slate-200 text-sm" aria-label="Live setup links">
            {live.map((link) => (
              <li key={link.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="text-slate-700">
                  {link.sso_provider_id && nameOf(link.sso_provider_id) ? `For ${nameOf(link.sso_provider_id)} · ` : ""}
                  Made by {link.created_by_email ?? "an operator"} · expires <RelativeTime iso={link.expires_at} future />
                  {link.last_opened_at ? (
                    <>
                      {" "}
                      · opened <RelativeTime iso={link.last_opened_at} />
                    </>
                  ) : (
                    " · not opened yet"
                  )}
                </span>
                <Button
                  variant="ghost"
                  size="sm"
                  loading={revoke.isPending && revoke.variables?.setup_link_id === link.id}
                  onClick={() => askRevoke(link)}
                >
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600">No live links.</p>
        )}
      </CardBody>
      {revoking ? (
        <ConfirmDialog
          title="Revoke this setup link?"
          confirmLabel={rotateToo ? "Revoke and rotate token" : "Revoke link"}
          pending={revoke.isPending}
          onConfirm={() => void confirmRevoke()}
          onCancel={() => setRevoking(null)}
        >
          <p>
            The link stops opening and its setup sessions end now. The directory{" "}
            <span className="font-medium">{revoking.directoryName}</span> and its SCIM token stay: your customer&apos;s IdP keeps syncing
            people into this tenant.
          </p>
          <Checkbox
            id="revoke-rotate-token"
            checked={rotateToo}
            onChange={(event) => setRotateToo(event.target.checked)}
            label="Also rotate the directory's SCIM token"
            description="Whoever held the link saw the token. A new one is shown to you once; the IdP needs it before its next sync. You will be asked to confirm it's you."
          />
        </ConfirmDialog>
      ) : null}
      {dialog}
    </Card>
  );
}
