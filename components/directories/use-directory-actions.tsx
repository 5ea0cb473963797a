"use client";

import { useState, type ReactNode } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useConfirmedStep, useResourceActions } from "../resource/use-resource-actions";
import { useTRPC } from "../trpc";
import { ConnectDialog } from "./connect-dialog";
import { CreateDirectoryDialog } from "./create-directory-dialog";
import { PROVIDER_STEPS } from "./provider-steps";
import type { Directory, DirectoryWithToken } from "./types";

/** What a directory grants: saved together, after a step-up. */
export type DirectoryGrants = Pick<Directory, "role_mappings" | "default_role" | "governs_existing_members">;

type Shown = { reason: "created" | "rotated"; directory: DirectoryWithToken } | null;

export interface DirectoryActions {
  add: () => void;
  askDelete: (directory: Directory) => void;
  askRotate: (directory: Directory) => void;
  setEnabled: (directory: Directory, enabled: boolean) => void;
  /** Saves what the directory grants (role mappings, default role, governs_existing_members); resolves true once saved (false: cancelled). Errors are thrown. */
  saveRoles: (directory: Directory, roles: DirectoryGrants) => Promise<boolean>;
  switching: (directory: Directory) => boolean;
  /** The dialogs these actions open: render them somewhere in the caller's tree. */
  dialogs: ReactNode;
}

/**
 * What a tenant admin can do to directories, shared by the list and a directory's page: create
 * (then the URL and token once), enable/disable, rotate the token and delete (both after a
 * step-up), save the role mappings.
 */
export function useDirectoryActions(
  tenantId: string,
  { onCreatedClosed, onDeleted }: { onCreatedClosed?: (directory: Directory) => void; onDeleted?: () => void } = {},
): DirectoryActions {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [shown, setShown] = useState<Shown>(null);

  const invalidate = () => queryClient.invalidateQueries(trpc.directories.pathFilter());
  const update = useMutation(trpc.directories.update.mutationOptions({ onSettled: invalidate }));
  const remove = useMutation(trpc.directories.delete.mutationOptions({ onSettled: invalidate }));
  const rotate = useMutation(trpc.directories.rotateToken.mutationOptions({ onSettled: invalidate }));
  const ids = (directory: Directory) => ({ tenant_id: tenantId, directory_id: directory.id });
  const idp = (directory: Directory) => PROVIDER_STEPS[directory.provider].name;

  const core = useResourceActions<Directory>({
    noun: "directory",
    nameOf: (directory) => directory.name,
    toggle: (directory, enabled) => update.mutateAsync({ ...ids(directory), enabled }),
  });
  const { notify, named: name } = core;

  async function saveRoles(directory: Directory, roles: DirectoryGrants) {
    const done = await core.steppingUpIfAsked(`change the role mappings of directory ${directory.name}`, () =>
      update.mutateAsync({ ...ids(directory), ...roles }),
    );
    if (done) notify(<>The role mappings of {name(directory)} are saved; its members&apos; roles follow them now.</>);
    return done;
  }

  const deleting = useConfirmedStep(core, {
    title: "Delete this directory?",
    confirmLabel: "Delete directory",
    body: (directory: Directory) => (
      <>
        <p>
          {name(directory)} stops answering {idp(directory)}. Its users are deprovisioned first: the console memberships it gave end, with
          their API tokens and sessions in this tenant. Then its users, groups and sync activity are deleted. This cannot be undone.
        </p>
        <p>You will be asked for your password first if you have not confirmed it in the last 10 minutes.</p>
      </>
    ),
    stepUp: "always",
    action: (directory) => `delete directory ${directory.name}`,
    run: (directory) => remove.mutateAsync(ids(directory)),
    pending: remove.isPending,
    done: (directory) => {
      notify(<>{name(directory)} was deleted.</>);
      onDeleted?.();
    },
  });

  const rotating = useConfirmedStep(core, {
    title: "Rotate the SCIM token?",
    confirmLabel: "Rotate token",
    tone: "primary",
    body: (directory: Directory) => (
      <>
        <p>
          A new token is generated for {name(directory)} and shown to you once. The old one stops working at once: until you paste the new
          one into {idp(directory)}, its sync requests are refused.
        </p>
        <p>You will be asked for your password first if you have not confirmed it in the last 10 minutes.</p>
      </>
    ),
    stepUp: "always",
    action: (directory) => `rotate the SCIM token of directory ${directory.name}`,
    run: (directory) => rotate.mutateAsync(ids(directory)),
    pending: rotate.isPending,
    done: (_, rotated) => setShown({ reason: "rotated", directory: rotated }),
  });

  const dialogs = (
    <>
      {adding ? (
        <CreateDirectoryDialog
          tenantId={tenantId}
          ensureSteppedUp={core.ensureSteppedUp}
          onClose={() => setAdding(false)}
          onCreated={(directory) => {
            setAdding(false);
            setShown({ reason: "created", directory });
          }}
        />
      ) : null}
      {deleting.dialog}
      {rotating.dialog}
      {shown ? (
        <ConnectDialog
          directory={shown.directory}
          reason={shown.reason}
          onClose={() => {
            setShown(null);
            if (shown.reason === "created") onCreatedClosed?.(shown.directory);
          }}
        />
      ) : null}
      {core.stepUpDialog}
    </>
  );

  return {
    add: () => setAdding(true),
    askDelete: deleting.ask,
    askRotate: rotating.ask,
    setEnabled: core.setEnabled,
    saveRoles,
    switching: (directory) => update.isPending && update.variables?.directory_id === directory.id && update.variables.enabled !== undefined,
    dialogs,
  };
}
