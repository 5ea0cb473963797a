"use client";

import { useQuery } from "@tanstack/react-query";
import type { SentInvitation } from "@/server/invitations/schemas";
import { useTRPC } from "../trpc";
import { Button } from "../ui/button";
import { CopyButton } from "../ui/copy-button";
import { Dialog } from "../ui/dialog";
import { formatExact } from "../ui/relative-time";

/** Whether this server mails invitation links (false: no mail server, the admin passes them on). */
export function useMailServer(tenantId: string): boolean | undefined {
  const trpc = useTRPC();
  const query = useQuery(trpc.invitations.delivery.queryOptions({ tenant_id: tenantId }, { staleTime: Infinity }));
  return query.data?.mail_server;
}

/**
 * A link the server could not mail (no mail server configured): the message lies in a file on the
 * server, so the admin who made the invitation is the one to pass the link on.
 */
export function InvitationLinkDialog({ invitation, onClose }: { invitation: SentInvitation & { link: string }; onClose: () => void }) {
  return (
    <Dialog
      title="Invitation not sent: pass the link on"
      description={
        <>
          No mail server is configured, so no mail went to <span className="font-medium text-slate-900">{invitation.email}</span>: the
          message was written to the server&apos;s mail folder (<code>.data/mail/</code> by default). Copy the link below and send it to
          them yourself.
        </>
      }
      onClose={onClose}
      size="md"
      footer={
        <Button variant="secondary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <div className="flex items-start gap-2">
        <code
          className="block min-w-0 flex-1 rounded-md bg-slate-50 px-3 py-2 font-mono text-sm break-all text-slate-900 ring-1 ring-slate-200 select-all"
          data-testid="invitation-link"
        >
          {invitation.link}
        </code>
        <CopyButton value={invitation.link} text="Copy link" className="shrink-0" />
      </div>
      <p className="mt-3 text-sm text-slate-600">
        It works once, until {formatExact(invitation.expires_at)}. Making a new link (Copy link in Pending invitations) stops this one.
      </p>
    </Dialog>
  );
}

/** What an admin is told when no link is handed out: the person accepts by signing in. */
export function signInToAccept(email: string): string {
  return `${email} already has an account or belongs to another organisation's domain: they accept by signing in to Control Plane, where the invitation waits for them.`;
}

/**
 * No mail server, and the email has an account (or is another organisation's person): no link is
 * handed to the admin, since a link sets a new account's password. The person accepts signed in.
 */
export function SignInToAcceptDialog({ invitation, onClose }: { invitation: SentInvitation; onClose: () => void }) {
  return (
    <Dialog
      title="No link: they accept by signing in"
      description={signInToAccept(invitation.email)}
      onClose={onClose}
      size="md"
      footer={
        <Button variant="secondary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <p className="text-sm text-slate-600">
        No mail server is configured, so no mail went to <span className="font-medium break-all text-slate-900">{invitation.email}</span>:
        let them know yourself. After signing in, they find it under <span className="font-medium text-slate-900">Invitations for you</span>{" "}
        on the Tenants page, until {formatExact(invitation.expires_at)}.
      </p>
    </Dialog>
  );
}

/** The invitation with its link, when the server handed one back rather than mailing it. */
export function withLink(invitation: SentInvitation): (SentInvitation & { link: string }) | null {
  return invitation.link === null ? null : { ...invitation, link: invitation.link };
}
