"use client";

import { useMutation } from "@tanstack/react-query";
import type { SentInvitation } from "@/server/invitations/schemas";
import { AddMemberInput, type Member } from "@/server/members/schemas";
import type { TenantRole } from "../console/use-tenant-role";
import { PersonDialog } from "../people/person-dialog";
import { useTRPC } from "../trpc";
import { ROLE_HINT, ROLE_OPTIONS } from "./roles";

/**
 * Adds someone to the tenant by email (platform operators): creates their user when the email is
 * new to the platform; a person who already has an account is sent an invitation instead.
 */
export function AddMemberDialog({
  tenantId,
  onAdded,
  onClose,
}: {
  tenantId: string;
  onAdded: (result: Member | SentInvitation) => void;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const add = useMutation(trpc.members.add.mutationOptions());
  return (
    <PersonDialog
      idPrefix="member"
      title="Add a member"
      description="Someone new to the platform gets access at once, with the role you choose. A person who already has an account is emailed an invitation instead: they join when they accept it."
      submitLabel="Add member"
      role={{ label: "Role", field: "role", options: ROLE_OPTIONS, initial: "viewer" as TenantRole, hint: (role) => ROLE_HINT[role] }}
      name
      password={{
        label: "Password (optional)",
        hint: "Only for someone new to the platform: a person who already has an account keeps their own password. Without one, they cannot sign in until a password is set.",
      }}
      parse={(values) => AddMemberInput.safeParse({ tenant_id: tenantId, ...values })}
      mutation={add}
      onDone={onAdded}
      onClose={onClose}
    />
  );
}
