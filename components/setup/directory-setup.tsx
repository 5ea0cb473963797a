"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { DIRECTORY_PROVIDER_NAMES, DIRECTORY_PROVIDERS, type Directory, type DirectoryProvider } from "@/server/directories/schemas";
import { messageOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { cx } from "../ui/cx";
import { RelativeTime } from "../ui/relative-time";
import { Spinner } from "../ui/spinner";
import { PROVIDER_STEPS } from "../directories/provider-steps";
import { SetupSteps } from "../directories/setup-steps";
import { Step, ValueRow } from "./setup-parts";

/** How often the live status asks whether the IdP has called yet. */
const POLL_MS = 3000;

/**
 * The guided directory setup: pick the IdP (which creates the directory), paste the SCIM base URL
 * and the token into it with its steps, then watch the first people arrive. The token is shown only
 * right after it is made; a lost one is replaced, not shown again.
 */
export function DirectorySetup({ initial }: { initial: Directory | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(null);
  const live = useQuery({
    ...trpc.setup.directory.state.queryOptions(),
    initialData: { directory: initial },
    refetchInterval: (q) => (q.state.data?.directory ? POLL_MS : false),
  });
  const directory = live.data?.directory ?? null;
  const onMade = (made: { directory: Directory; token: string }) => {
    setToken(made.token);
    queryClient.setQueryData(trpc.setup.directory.state.queryKey(), { directory: made.directory });
  };
  const create = useMutation(trpc.setup.directory.create.mutationOptions({ onSuccess: onMade }));
  const rotate = useMutation(trpc.setup.directory.rotateToken.mutationOptions({ onSuccess: onMade }));
  const [picked, setPicked] = useState<DirectoryProvider | null>(null);
  const provider = directory?.provider ?? picked;
  const guide = provider ? PROVIDER_STEPS[provider] : null;
  const received = directory ? directory.user_count + directory.group_count : 0;

  return (
    <ol className="mt-2" aria-label="Steps">
      <Step n={1} title="Your identity provider" state={directory ? "done" : "current"} testId="step-directory-idp">
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-3" role="group" aria-label="Identity providers">
          {DIRECTORY_PROVIDERS.map((option) => (
            <button
              key={option}
              type="button"
              disabled={directory !== null || create.isPending}
              aria-pressed={provider === option}
              onClick={() => {
                setPicked(option);
                create.mutate({ provider: option });
              }}
              className={cx(
                "rounded-md px-3 py-2.5 text-left text-sm font-medium ring-1 ring-inset",
                provider === option
                  ? "bg-indigo-50 text-indigo-800 ring-indigo-400"
                  : "bg-white text-slate-800 ring-slate-300 hover:bg-slate-50",
                "disabled:cursor-not-allowed disabled:opacity-70",
              )}
            >
              {DIRECTORY_PROVIDER_NAMES[option]}
            </button>
          ))}
        </div>
        {create.error ? <Alert tone="danger">{messageOf(create.error)}</Alert> : null}
      </Step>
      <Step
        n={2}
        title={provider ? `In ${DIRECTORY_PROVIDER_NAMES[provider]}` : "In your identity provider"}
        state={!directory ? "ahead" : received ? "done" : "current"}
        testId="step-directory-connect"
      >
        {directory && provider && guide ? (
          <>
            <SetupSteps
              provider={provider}
              values={
                <dl className="space-y-2">
                  <ValueRow label={guide.labels.url} value={directory.scim_base_url} testId="setup-scim-url" />
                  {token ? <ValueRow label={guide.labels.token} value={token} testId="setup-scim-token" /> : null}
                </dl>
              }
            />
            {token ? (
              <p className="text-sm text-amber-800">Copy the token now: it is shown only this once.</p>
            ) : (
              <div className="space-y-2 text-sm text-slate-700">
                <p>
                  The token (ending <code className="font-mono text-xs">{directory.token_hint}</code>) was shown when the directory was
                  made. Lost it? Make a new one: the old one stops working at once.
                </p>
                {rotate.error ? <Alert tone="danger">{messageOf(rotate.error)}</Alert> : null}
                <Button variant="secondary" loading={rotate.isPending} onClick={() => rotate.mutate()}>
                  Make a new token
                </Button>
              </div>
            )}
          </>
        ) : null}
      </Step>
      <Step
        n={3}
        title="The first people arrive"
        state={!directory ? "ahead" : received ? "done" : "current"}
        testId="step-directory-status"
      >
        {directory ? <LiveStatus directory={directory} /> : null}
      </Step>
    </ol>
  );
}

function LiveStatus({ directory }: { directory: Directory }) {
  if (!directory.last_request_at) {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-700" role="status" data-testid="setup-directory-status">
        <Spinner className="text-indigo-600" />
        Waiting for the first request from {DIRECTORY_PROVIDER_NAMES[directory.provider]}…
      </p>
    );
  }
  const users = `${directory.user_count} ${directory.user_count === 1 ? "user" : "users"}`;
  const groups = `${directory.group_count} ${directory.group_count === 1 ? "group" : "groups"}`;
  return (
    <Alert tone={directory.user_count ? "success" : "info"} title={`${users} and ${groups} received`}>
      <p data-testid="setup-directory-status">
        Last request <RelativeTime iso={directory.last_request_at} />. People are kept in sync from now on: you can close this page.
      </p>
    </Alert>
  );
}
