"use client";

import { useMutation } from "@tanstack/react-query";
import { CreateInvitationInput, type SentInvitation } from "@/server/invitations/schemas";
import type { TenantRole } from "../console/use-tenant-role";
import { PersonDialog } from "../people/person-dialog";
import { useTRPC } from "../trpc";
import { ROLE_HINT, ROLE_OPTIONS } from "./roles";

/** Invites someone by email: they get a link (valid 7 days) to set their password and join. */
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
  const create = useMutation(trpc.invitations.create.mutationOptions());
  return (
    <PersonDialog
      idPrefix="invite"
      title="Invite someone"
      description="They get an email with a link, valid for 7 days, to set their password and join this tenant with the role you choose."
      submitLabel="Send invitation"
      role={{ label: "Role", field: "role", options: ROLE_OPTIONS, initial: "viewer" as TenantRole, hint: (role) => ROLE_HINT[role] }}
      parse={({ email, role }) => CreateInvitationInput.safeParse({ tenant_id: tenantId, email, role })}
      mutation={create}
      onDone={onSent}
      onClose={onClose}
    />
  );
}
