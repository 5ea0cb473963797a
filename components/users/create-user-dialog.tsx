"use client";

import { useMutation } from "@tanstack/react-query";
import { CreatePlatformUserInput, type PlatformUser } from "@/server/account/schemas";
import type { PlatformRole } from "@/server/auth/principal";
import { PersonDialog } from "../people/person-dialog";
import { useTRPC } from "../trpc";
import { PLATFORM_ROLE_HINT, PLATFORM_ROLE_LABEL } from "./roles";

const OPTIONS = (["support", "operator"] as const).map((value) => ({ value, label: PLATFORM_ROLE_LABEL[value] }));

/** Creates an operator or support user with a first password the operator passes on. */
export function CreateUserDialog({ onCreated, onClose }: { onCreated: (user: PlatformUser) => void; onClose: () => void }) {
  const trpc = useTRPC();
  const create = useMutation(trpc.users.create.mutationOptions());
  return (
    <PersonDialog
      idPrefix="user"
      title="Create a platform user"
      description="An operator or a support person. People of a tenant are added by that tenant's admins instead."
      submitLabel="Create user"
      role={{
        label: "Platform role",
        field: "platform_role",
        options: OPTIONS,
        initial: "support" as PlatformRole,
        hint: (role) => PLATFORM_ROLE_HINT[role],
      }}
      name
      password={{
        label: "First password",
        hint: "At least 8 characters. Pass it on privately; they change it on their profile after signing in.",
      }}
      parse={({ email, name, role, password }) =>
        CreatePlatformUserInput.safeParse({ email, name, password: password ?? "", platform_role: role })
      }
      mutation={create}
      onDone={onCreated}
      onClose={onClose}
    />
  );
}
