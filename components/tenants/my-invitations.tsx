"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MyInvitation } from "@/server/invitations/schemas";
import { useConsoleUser } from "../console/user-context";
import { messageOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { Table, TBody, Td, Th, THead, Tr } from "../ui/table";
import { useToast } from "../ui/toast";
import { ExpiresIn } from "../members/pending-invitations";
import { ROLE_LABEL } from "../members/roles";
import { MY_INVITATIONS_INPUT } from "./queries";

/**
 * Invitations waiting for the signed-in account, in any tenant: accepting one makes it a member
 * there with the role shown (and the tenant joins the list below). Hidden when there are none.
 */
export function MyInvitations() {
  const trpc = useTRPC();
  const user = useConsoleUser();
  const queryClient = useQueryClient();
  const notify = useToast();
  const query = useQuery(trpc.myInvitations.list.queryOptions(MY_INVITATIONS_INPUT));
  const accept = useMutation(trpc.myInvitations.accept.mutationOptions());
  const [error, setError] = useState<string | null>(null);
  /** Joined a tenant this session does not reach (it was signed in through another tenant's SSO). */
  const [elsewhere, setElsewhere] = useState<string | null>(null);

  function accepted(invitation: MyInvitation) {
    void queryClient.invalidateQueries(trpc.myInvitations.list.pathFilter());
    void queryClient.invalidateQueries(trpc.tenants.list.pathFilter());
    if (user.ssoTenantId && user.ssoTenantId !== invitation.tenant_id) return setElsewhere(invitation.tenant_name);
    notify(
      <>
        You joined <span className="font-medium">{invitation.tenant_name}</span> as {ROLE_LABEL[invitation.role].toLowerCase()}.
      </>,
    );
  }

  const invitations = query.data?.results ?? [];
  if (invitations.length === 0 && !elsewhere && !query.isError) return null;

  return (
    <Card aria-labelledby="my-invitations-title">
      <CardHeader
        as="h2"
        title={<span id="my-invitations-title">Invitations for you</span>}
        description={`Organisations that invited ${user.email}. Accepting makes you a member with the role shown; your sign-in stays as it is.`}
      />
      {error || query.isError || elsewhere ? (
        <div className="border-b border-slate-200 px-4 py-3 sm:px-6">
          {elsewhere ? (
            <Alert tone="success" title={`You joined ${elsewhere}`}>
              You signed in through another organisation&apos;s single sign-on, which opens that organisation only. To open {elsewhere},
              sign out and sign in again with your password.
            </Alert>
          ) : (
            <Alert tone="danger">{error ?? messageOf(query.error)}</Alert>
          )}
        </div>
      ) : null}
      {invitations.length > 0 ? (
        <Table aria-label="Invitations for you">
          <THead>
            <Tr>
              <Th>Organisation</Th>
              <Th className="hidden sm:table-cell">Role</Th>
              <Th className="hidden md:table-cell">Invited by</Th>
              <Th className="hidden sm:table-cell">Expires</Th>
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            </Tr>
          </THead>
          <TBody>
            {invitations.map((invitation) => (
              <Tr key={invitation.id} data-testid="my-invitation-row">
                <Td className="w-full max-w-0">
                  <span className="block truncate font-medium text-slate-900">{invitation.tenant_name}</span>
                  <span className="mt-1 block text-xs text-slate-600 sm:hidden">
                    {ROLE_LABEL[invitation.role]} · expires <ExpiresIn iso={invitation.expires_at} />
                  </span>
                </Td>
                <Td className="hidden sm:table-cell">
                  <Badge tone={invitation.role === "admin" ? "accent" : "neutral"}>{ROLE_LABEL[invitation.role]}</Badge>
                </Td>
                <Td className="hidden max-w-56 truncate text-slate-600 md:table-cell">{invitation.invited_by_email ?? "—"}</Td>
                <Td className="hidden whitespace-nowrap text-slate-600 sm:table-cell">
                  <ExpiresIn iso={invitation.expires_at} />
                </Td>
                <Td className="whitespace-nowrap text-right">
                  <Button
                    size="sm"
                    aria-label={`Accept invitation to ${invitation.tenant_name}`}
                    loading={accept.isPending && accept.variables?.invitation_id === invitation.id}
                    onClick={() => {
                      setError(null);
                      setElsewhere(null);
                      accept.mutate(
                        { invitation_id: invitation.id },
                        { onSuccess: () => accepted(invitation), onError: (e) => setError(messageOf(e)) },
                      );
                    }}
                  >
                    Accept
                  </Button>
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      ) : null}
    </Card>
  );
}
