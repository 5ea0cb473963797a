"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import type { SessionSummary } from "@/server/account/schemas";
import { consoleUrl } from "../console/urls";
import { messageOf, useTRPC } from "../trpc";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { LoadError } from "../ui/list-states";
import { RelativeTime } from "../ui/relative-time";
import { Skeleton } from "../ui/skeleton";
import { useToast } from "../ui/toast";

/** "Chrome on macOS" from a user agent; the raw string when it names neither. */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const browser = [
    ["Edg/", "Edge"],
    ["Firefox/", "Firefox"],
    ["Chrome/", "Chrome"],
    ["Safari/", "Safari"],
  ].find(([token]) => userAgent.includes(token!))?.[1];
  const os = [
    ["iPhone", "iPhone"],
    ["iPad", "iPad"],
    ["Android", "Android"],
    ["Mac OS X", "macOS"],
    ["Windows", "Windows"],
    ["Linux", "Linux"],
  ].find(([token]) => userAgent.includes(token!))?.[1];
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? userAgent.slice(0, 60);
}

function SessionRow({ session, onEnd }: { session: SessionSummary; onEnd: (session: SessionSummary) => void }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 px-4 py-3.5 sm:px-6" data-testid="session-row">
      <div className="min-w-0 space-y-1">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
          <span className="truncate" title={session.user_agent ?? undefined}>
            {deviceOf(session.user_agent)}
          </span>
          {session.current ? <Badge tone="success">This session</Badge> : null}
          <Badge tone={session.method === "sso" ? "accent" : "neutral"}>
            {session.method === "sso" ? `SSO${session.sso_provider_name ? `: ${session.sso_provider_name}` : ""}` : "Password"}
          </Badge>
        </p>
        <p className="text-sm text-slate-600">
          {session.ip_address ?? "Unknown address"} · signed in <RelativeTime iso={session.created_at} /> · last active{" "}
          <RelativeTime iso={session.last_seen_at} />
        </p>
      </div>
      {session.current ? null : (
        <Button variant="secondary" size="sm" onClick={() => onEnd(session)}>
          Sign out
        </Button>
      )}
    </li>
  );
}

/**
 * The account's live console sessions: where each is signed in, ending one (a browser left signed
 * in elsewhere), and signing out everywhere, this browser included.
 */
export function SessionsCard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const notify = useToast();
  const sessions = useQuery(trpc.account.sessions.queryOptions({}));
  const endOne = useMutation(trpc.account.endSession.mutationOptions());
  const endAll = useMutation(trpc.account.signOutEverywhere.mutationOptions());
  const [ending, setEnding] = useState<SessionSummary | null>(null);
  const [everywhere, setEverywhere] = useState(false);

  const others = sessions.data?.results.filter((s) => !s.current).length ?? 0;

  return (
    <Card aria-labelledby="sessions-title">
      <CardHeader
        title={<span id="sessions-title">Sessions</span>}
        description="Where your account is signed in to the console. Signing out a session ends it at once, on that device too."
        actions={
          <Button variant="secondary" size="sm" onClick={() => setEverywhere(true)} disabled={!sessions.data}>
            Sign out everywhere
          </Button>
        }
      />
      {sessions.isPending ? (
        <div className="space-y-3 p-6" aria-busy="true">
          <Skeleton className="h-4 w-1/2" />
          <Skeleton className="h-4 w-1/3" />
        </div>
      ) : sessions.isError ? (
        <LoadError
          title="Your sessions could not be loaded"
          message={messageOf(sessions.error)}
          onRetry={() => sessions.refetch()}
          retrying={sessions.isFetching}
        />
      ) : (
        <ul className="divide-y divide-slate-200" aria-label="Sessions">
          {sessions.data.results.map((session) => (
            <SessionRow key={session.id} session={session} onEnd={setEnding} />
          ))}
        </ul>
      )}

      {ending ? (
        <ConfirmDialog
          title="Sign out this session?"
          confirmLabel="Sign out session"
          pending={endOne.isPending}
          error={endOne.error ? messageOf(endOne.error) : null}
          onCancel={() => (setEnding(null), endOne.reset())}
          onConfirm={() =>
            endOne.mutate(
              { session_id: ending.id },
              {
                onSuccess: async () => {
                  setEnding(null);
                  notify(`Signed out ${deviceOf(ending.user_agent)}`);
                  await queryClient.invalidateQueries({ queryKey: trpc.account.sessions.queryKey() });
                },
              },
            )
          }
        >
          {deviceOf(ending.user_agent)} at {ending.ip_address ?? "an unknown address"} is signed out at once. Whoever uses it must sign in
          again.
        </ConfirmDialog>
      ) : null}

      {everywhere ? (
        <ConfirmDialog
          title="Sign out everywhere?"
          confirmLabel="Sign out everywhere"
          pending={endAll.isPending}
          error={endAll.error ? messageOf(endAll.error) : null}
          onCancel={() => (setEverywhere(false), endAll.reset())}
          onConfirm={() =>
            endAll.mutate(
              {},
              // This session ended too: next-auth clears its cookie and loads the sign-in page.
              { onSuccess: () => signOut({ callbackUrl: consoleUrl.login() }) },
            )
          }
        >
          Every session of your account ends, this one included{others > 0 ? ` and ${others} other${others === 1 ? "" : "s"}` : ""}. API
          tokens keep working: revoke them on the Tokens page.
        </ConfirmDialog>
      ) : null}
    </Card>
  );
}
