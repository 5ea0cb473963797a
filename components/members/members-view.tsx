"use client";

import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SentInvitation } from "@/server/invitations/schemas";
import { wasAdded, type Member } from "@/server/members/schemas";
import { useConsoleUser } from "../console/user-context";
import { useTenantRole, type TenantRole } from "../console/use-tenant-role";
import { messageOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { FIRST_PAGE, type TablePosition } from "../ui/pagination";
import { useToast } from "../ui/toast";
import { PlusIcon } from "../icons";
import { AddMemberDialog } from "./add-member-dialog";
import { InviteDialog } from "./invite-dialog";
import { signInToAccept } from "./invitation-link";
import { PendingInvitations } from "./pending-invitations";
import { MembersTable, type MemberActions } from "./members-table";
import { ROLE_LABEL } from "./roles";
import { SetPasswordDialog } from "./set-password-dialog";

type Open =
  | { kind: "invite" }
  | { kind: "add" }
  | { kind: "remove"; member: Member }
  | { kind: "demote-self"; member: Member }
  | { kind: "promote"; member: Member }
  | { kind: "password"; member: Member }
  | null;

/**
 * The Members tab: who has access to the tenant, and (for admins) inviting, changing and removing
 * them. Admins invite by email; only platform operators add people directly with a first password.
 */
export function MembersView({ tenantId }: { tenantId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const notify = useToast();
  const user = useConsoleUser();
  const { canWrite, loading } = useTenantRole(tenantId);
  const [position, setPosition] = useState<TablePosition>(FIRST_PAGE);
  const [open, setOpen] = useState<Open>(null);
  const [highlightId, setHighlightId] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const operator = user.platformRole === "operator";

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries(trpc.members.list.pathFilter()),
      queryClient.invalidateQueries(trpc.account.me.pathFilter()),
    ]);
  const update = useMutation(trpc.members.update.mutationOptions({ onSettled: refresh }));
  const remove = useMutation(trpc.members.remove.mutationOptions({ onSuccess: refresh }));

  function changeRole(member: Member, role: TenantRole, confirmed = false) {
    if (role === member.role) return;
    // Operators stay admin through their platform role, so only others are asked.
    if (member.user_id === user.userId && role === "viewer" && user.platformRole !== "operator" && !confirmed) {
      setOpen({ kind: "demote-self", member });
      return;
    }
    if (role === "admin" && !confirmed) {
      setOpen({ kind: "promote", member });
      return;
    }
    setActionError(null);
    update.mutate(
      { tenant_id: tenantId, user_id: member.user_id, role },
      {
        onSuccess: (updated) => {
          setOpen(null);
          notify(
            <>
              <span className="font-medium">{updated.email}</span> is now {ROLE_LABEL[updated.role].toLowerCase()}.
            </>,
          );
        },
        onError: (error) => {
          setOpen(null);
          setActionError(messageOf(error));
        },
      },
    );
  }

  function invitationSent(invitation: SentInvitation, why?: string) {
    setOpen(null);
    void queryClient.invalidateQueries(trpc.invitations.list.pathFilter());
    if (invitation.email_sent) {
      notify(
        <>
          Invitation sent to <span className="font-medium">{invitation.email}</span>
          {why ? `: this person ${why}` : null}.
        </>,
      );
    } else if (invitation.accept_by === "sign_in") {
      notify(<>{signInToAccept(invitation.email)}</>);
    } else {
      setActionError(`The invitation to ${invitation.email} was saved but its mail could not be sent. Resend it from Pending invitations.`);
    }
  }

  const actions: MemberActions | null = canWrite
    ? {
        changeRole: (member, role) => changeRole(member, role),
        remove: (member) => {
          remove.reset();
          setOpen({ kind: "remove", member });
        },
        setPassword: operator ? (member) => setOpen({ kind: "password", member }) : undefined,
        keep: (member) =>
          update.mutate(
            { tenant_id: tenantId, user_id: member.user_id, reviewed: true },
            {
              onSuccess: (kept) => notify(<>Kept {kept.email}.</>),
              onError: (error) => setActionError(messageOf(error)),
            },
          ),
      }
    : null;

  return (
    <>
      <Card aria-labelledby="members-title">
        <CardHeader
          title={<span id="members-title">Members</span>}
          description={
            loading
              ? "People with access to this tenant."
              : canWrite
                ? "People with access to this tenant. Admins change it; viewers can only look."
                : "People with access to this tenant. You have view-only access, so you cannot change them."
          }
          actions={
            canWrite ? (
              <span className="flex flex-wrap gap-2">
                {operator ? (
                  <Button variant="secondary" onClick={() => setOpen({ kind: "add" })}>
                    Add member
                  </Button>
                ) : null}
                <Button onClick={() => setOpen({ kind: "invite" })}>
                  <PlusIcon className="size-4" />
                  Invite
                </Button>
              </span>
            ) : null
          }
        />
        {actionError ? (
          <div className="border-b border-slate-200 px-4 py-3 sm:px-6">
            <Alert
              tone="danger"
              action={
                <Button variant="ghost" size="sm" onClick={() => setActionError(null)}>
                  Dismiss
                </Button>
              }
            >
              {actionError}
            </Alert>
          </div>
        ) : null}
        <MembersTable
          tenantId={tenantId}
          position={position}
          onMove={setPosition}
          actions={actions}
          selfId={user.userId}
          pendingId={update.isPending ? update.variables?.user_id : null}
          highlightId={highlightId}
        />

        {open?.kind === "invite" ? (
          <InviteDialog tenantId={tenantId} onClose={() => setOpen(null)} onSent={(invitation) => invitationSent(invitation)} />
        ) : null}

        {open?.kind === "add" ? (
          <AddMemberDialog
            tenantId={tenantId}
            onClose={() => setOpen(null)}
            onAdded={(result) => {
              // An existing account is never added outright: the server invited them instead.
              if (!wasAdded(result)) return invitationSent(result, "already has an account, so they join when they accept it");
              setOpen(null);
              setHighlightId(result.user_id);
              setPosition(FIRST_PAGE);
              void refresh();
              notify(
                <>
                  <span className="font-medium">{result.email}</span> added as {ROLE_LABEL[result.role].toLowerCase()}.
                </>,
              );
            }}
          />
        ) : null}

        {open?.kind === "password" ? (
          <SetPasswordDialog
            member={open.member}
            onClose={() => setOpen(null)}
            onDone={(member) => {
              setOpen(null);
              void refresh();
              notify(
                <>
                  Password set for <span className="font-medium">{member.email}</span>.
                </>,
              );
            }}
          />
        ) : null}

        {open?.kind === "remove" ? (
          <ConfirmDialog
            title={open.member.user_id === user.userId ? "Remove yourself?" : "Remove member?"}
            confirmLabel="Remove member"
            pending={remove.isPending}
            error={remove.isError ? messageOf(remove.error) : null}
            onCancel={() => setOpen(null)}
            onConfirm={() =>
              remove.mutate(
                { tenant_id: tenantId, user_id: open.member.user_id },
                {
                  onSuccess: () => {
                    setOpen(null);
                    notify(
                      <>
                        <span className="font-medium">{open.member.email}</span> removed.
                      </>,
                    );
                  },
                },
              )
            }
          >
            <p>
              <span className="font-medium text-slate-900">{open.member.email}</span>
              {open.member.name ? ` (${open.member.name})` : null} will lose access to this tenant.
              {open.member.user_id === user.userId && !user.platformRole
                ? " You will no longer see it unless someone adds you again."
                : null}
            </p>
          </ConfirmDialog>
        ) : null}

        {open?.kind === "promote" ? (
          <ConfirmDialog
            title={`Make ${open.member.name ?? open.member.email} an admin?`}
            confirmLabel="Make admin"
            tone="primary"
            pending={update.isPending}
            onCancel={() => setOpen(null)}
            onConfirm={() => changeRole(open.member, "admin", true)}
          >
            <p>
              <span className="font-medium text-slate-900">{open.member.email}</span>
              {open.member.name ? ` (${open.member.name})` : null} will be able to change this tenant: its members, SSO providers and
              webhooks.
            </p>
          </ConfirmDialog>
        ) : null}

        {open?.kind === "demote-self" ? (
          <ConfirmDialog
            title="Make yourself a viewer?"
            confirmLabel="Make me a viewer"
            pending={update.isPending}
            onCancel={() => setOpen(null)}
            onConfirm={() => changeRole(open.member, "viewer", true)}
          >
            <p>You will no longer be able to change this tenant, and only another admin can make you admin again.</p>
          </ConfirmDialog>
        ) : null}
      </Card>
      {canWrite ? <PendingInvitations tenantId={tenantId} /> : null}
    </>
  );
}
