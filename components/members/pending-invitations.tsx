"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Invitation, SentInvitation } from "@/server/invitations/schemas";
import { messageOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { formatDaysUntil, formatExact, useNow } from "../ui/relative-time";
import { Table, TBody, Td, Th, THead, Tr } from "../ui/table";
import { useToast } from "../ui/toast";
import { InvitationLinkDialog, SignInToAcceptDialog, useMailServer, withLink } from "./invitation-link";
import { pendingInvitationsInput } from "./queries";
import { ROLE_LABEL } from "./roles";

/** "in 7 days", the exact time in a tooltip. */
export function ExpiresIn({ iso }: { iso: string }) {
  const now = useNow();
  const full = formatExact(iso);
  return (
    <time dateTime={iso} title={full}>
      {now === null ? full : formatDaysUntil(new Date(iso), now)}
    </time>
  );
}

/**
 * Invitations not yet accepted (admins only): resend a fresh link or revoke. Without a mail server,
 * "Copy link" makes the fresh link and hands it to the admin, or says the person accepts by signing
 * in (an email with an account gets no link). Hidden when there are none.
 */
export function PendingInvitations({ tenantId }: { tenantId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const notify = useToast();
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [unsent, setUnsent] = useState<ReturnType<typeof withLink>>(null);
  const [signIn, setSignIn] = useState<SentInvitation | null>(null);
  const mailServer = useMailServer(tenantId);
  const query = useQuery(trpc.invitations.list.queryOptions(pendingInvitationsInput(tenantId)));
  const refresh = () => queryClient.invalidateQueries(trpc.invitations.list.pathFilter());
  const resend = useMutation(trpc.invitations.resend.mutationOptions({ onSettled: refresh }));
  const revoke = useMutation(trpc.invitations.revoke.mutationOptions({ onSuccess: refresh }));

  function resent(sent: SentInvitation) {
    const link = withLink(sent);
    if (link) {
      // Best effort: after the round trip some browsers no longer count the click as the user's; the dialog's button still copies.
      navigator.clipboard?.writeText(link.link).catch(() => undefined);
      setUnsent(link);
    } else if (sent.accept_by === "sign_in") {
      setSignIn(sent);
    } else if (sent.email_sent) {
      notify(
        <>
          New invitation link sent to <span className="font-medium">{sent.email}</span>.
        </>,
      );
    } else setError(`The mail to ${sent.email} could not be sent. Try again later.`);
  }

  const invitations = query.data?.results ?? [];
  if (invitations.length === 0 && !query.isError) return null;

  return (
    <Card aria-labelledby="invitations-title" className="mt-6">
      <CardHeader
        title={<span id="invitations-title">Pending invitations</span>}
        description={
          mailServer === false
            ? "Not accepted yet. No mail server is configured: Copy link makes a new link for you to pass on (the old one stops working); someone who already has an account accepts by signing in instead."
            : "Sent but not accepted yet. Resending mails a new link and the old one stops working."
        }
      />
      {error || query.isError ? (
        <div className="border-b border-slate-200 px-4 py-3 sm:px-6">
          <Alert tone="danger">{error ?? messageOf(query.error)}</Alert>
        </div>
      ) : null}
      <Table aria-label="Pending invitations">
        <THead>
          <Tr>
            <Th>Email</Th>
            <Th className="hidden sm:table-cell">Role</Th>
            <Th className="hidden sm:table-cell">Expires</Th>
            <Th>
              <span className="sr-only">Actions</span>
            </Th>
          </Tr>
        </THead>
        <TBody>
          {invitations.map((invitation) => (
            <Tr key={invitation.id} data-testid="invitation-row">
              <Td className="w-full max-w-0">
                <span className="block font-medium break-all whitespace-normal text-slate-900">{invitation.email}</span>
                <span className="mt-1 block text-xs text-slate-600 sm:hidden">
                  {ROLE_LABEL[invitation.role]} · expires <ExpiresIn iso={invitation.expires_at} />
                </span>
              </Td>
              <Td className="hidden sm:table-cell">
                <Badge tone={invitation.role === "admin" ? "accent" : "neutral"}>{ROLE_LABEL[invitation.role]}</Badge>
              </Td>
              <Td className="hidden whitespace-nowrap text-slate-600 sm:table-cell">
                <ExpiresIn iso={invitation.expires_at} />
              </Td>
              <Td className="whitespace-nowrap text-right">
                <span className="inline-flex justify-end gap-2">
                  <Button
                    variant="secondary"
                    size="sm"
                    aria-label={`${mailServer === false ? "Copy a new link for" : "Resend"} invitation to ${invitation.email}`}
                    loading={resend.isPending && resend.variables?.invitation_id === invitation.id}
                    onClick={() => {
                      setError(null);
                      resend.mutate(
                        { tenant_id: tenantId, invitation_id: invitation.id },
                        { onSuccess: resent, onError: (e) => setError(messageOf(e)) },
                      );
                    }}
                  >
                    {mailServer === false ? "Copy link" : "Resend"}
                  </Button>
                  <Button
                    variant="secondary"
                    size="sm"
                    aria-label={`Revoke invitation to ${invitation.email}`}
                    onClick={() => (revoke.reset(), setRevoking(invitation))}
                  >
                    Revoke
                  </Button>
                </span>
              </Td>
            </Tr>
          ))}
        </TBody>
      </Table>
      {unsent ? <InvitationLinkDialog invitation={unsent} onClose={() => setUnsent(null)} /> : null}
      {signIn ? <SignInToAcceptDialog invitation={signIn} onClose={() => setSignIn(null)} /> : null}
      {revoking ? (
        <ConfirmDialog
          title="Revoke invitation?"
          confirmLabel="Revoke invitation"
          pending={revoke.isPending}
          error={revoke.isError ? messageOf(revoke.error) : null}
          onCancel={() => setRevoking(null)}
          onConfirm={() =>
            revoke.mutate(
              { tenant_id: tenantId, invitation_id: revoking.id },
              {
                onSuccess: () => {
                  setRevoking(null);
                  notify(
                    <>
                      Invitation to <span className="font-medium">{revoking.email}</span> revoked.
                    </>,
                  );
                },
              },
            )
          }
        >
          <p>
            The link sent to <span className="font-medium text-slate-900">{revoking.email}</span> will stop working.
          </p>
        </ConfirmDialog>
      ) : null}
    </Card>
  );
}
