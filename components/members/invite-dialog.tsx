"use client";

import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CreateInvitationInput, type SentInvitation } from "@/server/invitations/schemas";
import type { TenantRole } from "../console/use-tenant-role";
import { PersonDialog } from "../people/person-dialog";
import { useTRPC } from "../trpc";
import { InvitationLinkDialog, SignInToAcceptDialog, useMailServer, withLink } from "./invitation-link";
import { ROLE_HINT, ROLE_OPTIONS } from "./roles";

/**
 * Invites someone by email: they get a link (valid 7 days) to set their password and join. Without
 * a mail server, the dialog hands the link to the admin instead of reporting it sent, or (an email
 * with an account, or another organisation's person) says they accept by signing in.
 */
export function InviteDialog({
  tenantId,
  onSent,
  onClose,
}: {
  tenantId: string;
  onSent: (invitation: SentInvitation) => void;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const create = useMutation(trpc.invitations.create.mutationOptions());
  const mailServer = useMailServer(tenantId);
  const [unsent, setUnsent] = useState<ReturnType<typeof withLink>>(null);
  const [signIn, setSignIn] = useState<SentInvitation | null>(null);
  if (unsent) return <InvitationLinkDialog invitation={unsent} onClose={onClose} />;
  if (signIn) return <SignInToAcceptDialog invitation={signIn} onClose={onClose} />;
  return (
    <PersonDialog
      idPrefix="invite"
      title="Invite someone"
      description={
        mailServer === false
          ? "No mail server is configured: for someone new you get the link, valid for 7 days, to pass on; it lets them set their password and join with the role you choose. Someone who already has an account accepts by signing in."
          : "They get an email with a link, valid for 7 days, to set their password and join this tenant with the role you choose."
      }
      submitLabel={mailServer === false ? "Create invitation" : "Send invitation"}
      role={{ label: "Role", field: "role", options: ROLE_OPTIONS, initial: "viewer" as TenantRole, hint: (role) => ROLE_HINT[role] }}
      parse={({ email, role }) => CreateInvitationInput.safeParse({ tenant_id: tenantId, email, role })}
      mutation={create}
      onDone={(invitation) => {
        const link = withLink(invitation);
        if (!link && invitation.accept_by !== "sign_in") return onSent(invitation);
        void queryClient.invalidateQueries(trpc.invitations.list.pathFilter());
        if (link) setUnsent(link);
        else setSignIn(invitation);
      }}
      onClose={onClose}
    />
  );
}
