"use client";

import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CreateInvitationInput, type SentInvitation } from "@/server/invitations/schemas";
import type { TenantRole } from "../console/use-tenant-role";
import { PersonDialog } from "../people/person-dialog";
import { useTRPC } from "../trpc";
import { InvitationLinkDialog, useMailServer, withLink } from "./invitation-link";
import { ROLE_HINT, ROLE_OPTIONS } from "./roles";

/**
 * Invites someone by email: they get a link (valid 7 days) to set their password and join. Without
 * a mail server, the dialog hands the link to the admin instead of reporting it sent.
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
  if (unsent) return <InvitationLinkDialog invitation={unsent} onClose={onClose} />;
  return (
    <PersonDialog
      idPrefix="invite"
      title="Invite someone"
      description={
        mailServer === false
          ? "No mail server is configured: you get the link, valid for 7 days, to pass on. It lets them set their password and join this tenant with the role you choose."
          : "They get an email with a link, valid for 7 days, to set their password and join this tenant with the role you choose."
      }
      submitLabel={mailServer === false ? "Create invitation" : "Send invitation"}
      role={{ label: "Role", field: "role", options: ROLE_OPTIONS, initial: "viewer" as TenantRole, hint: (role) => ROLE_HINT[role] }}
      parse={({ email, role }) => CreateInvitationInput.safeParse({ tenant_id: tenantId, email, role })}
      mutation={create}
      onDone={(invitation) => {
        const link = withLink(invitation);
        if (!link) return onSent(invitation);
        void queryClient.invalidateQueries(trpc.invitations.list.pathFilter());
        setUnsent(link);
      }}
      onClose={onClose}
    />
  );
}
