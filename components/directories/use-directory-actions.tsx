"use client";

import { useState, type ReactNode } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useStepUp } from "../auth/step-up-dialog";
import { stepUpIfAsked, withStepUp } from "../auth/with-step-up";
import { messageOf, useTRPC } from "../trpc";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { useToast } from "../ui/toast";
import { ConnectDialog } from "./connect-dialog";
import { CreateDirectoryDialog } from "./create-directory-dialog";
import { PROVIDER_STEPS } from "./provider-steps";
import type { Directory, DirectoryWithToken } from "./types";

/** What a directory grants: saved together, after a step-up. */
export type DirectoryGrants = Pick<Directory, "role_mappings" | "default_role" | "governs_existing_members">;

type Asking = { kind: "delete" | "rotate"; directory: Directory } | null;
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
  const notify = useToast();
  const { ensureSteppedUp, dialog: stepUpDialog } = useStepUp();
  const [adding, setAdding] = useState(false);
  const [asking, setAsking] = useState<Asking>(null);
  const [askError, setAskError] = useState<string | null>(null);
  const [shown, setShown] = useState<Shown>(null);

  const invalidate = () => queryClient.invalidateQueries(trpc.directories.pathFilter());
  const update = useMutation(trpc.directories.update.mutationOptions({ onSettled: invalidate }));
  const remove = useMutation(trpc.directories.delete.mutationOptions({ onSettled: invalidate }));
  const rotate = useMutation(trpc.directories.rotateToken.mutationOptions({ onSettled: invalidate }));
  const ids = (directory: Directory) => ({ tenant_id: tenantId, directory_id: directory.id });
  const name = (directory: Directory) => <span className="font-medium wrap-anywhere">{directory.name}</span>;
  const steppingUpIfAsked = (action: string, call: () => Promise<unknown>) => stepUpIfAsked(ensureSteppedUp, action, call);

  async function setEnabled(directory: Directory, enabled: boolean) {
    try {
      const action = `${enabled ? "enable" : "disable"} directory ${directory.name}`;
      if (await steppingUpIfAsked(action, () => update.mutateAsync({ ...ids(directory), enabled }))) {
        notify(
          <>
            {name(directory)} is {enabled ? "enabled" : "disabled"}.
          </>,
        );
      }
    } catch (error) {
      notify(
        <>
          {name(directory)} could not be {enabled ? "enabled" : "disabled"}: {messageOf(error)}
        </>,
        "danger",
      );
    }
  }

  async function saveRoles(directory: Directory, roles: DirectoryGrants) {
    const done = await steppingUpIfAsked(`change the role mappings of directory ${directory.name}`, () =>
      update.mutateAsync({ ...ids(directory), ...roles }),
    );
    if (done) notify(<>The role mappings of {name(directory)} are saved; its members&apos; roles follow them now.</>);
    return done;
  }

  async function confirm() {
    if (!asking) return;
    const { kind, directory } = asking;
    setAskError(null);
    try {
      if (kind === "delete") {
        if (!(await withStepUp(ensureSteppedUp, `delete directory ${directory.name}`, () => remove.mutateAsync(ids(directory))))) return;
        setAsking(null);
        notify(<>{name(directory)} was deleted.</>);
        onDeleted?.();
      } else {
        let rotated: DirectoryWithToken | undefined;
        const done = await withStepUp(ensureSteppedUp, `rotate the SCIM token of directory ${directory.name}`, async () => {
          rotated = await rotate.mutateAsync(ids(directory));
        });
        if (!done || !rotated) return;
        setAsking(null);
        setShown({ reason: "rotated", directory: rotated });
      }
    } catch (error) {
      setAskError(messageOf(error));
    }
  }

  const ask = (kind: "delete" | "rotate") => (directory: Directory) => {
    setAskError(null);
    setAsking({ kind, directory });
  };

  const idp = (directory: Directory) => PROVIDER_STEPS[directory.provider].name;
  const dialogs = (
    <>
      {adding ? (
        <CreateDirectoryDialog
          tenantId={tenantId}
          ensureSteppedUp={ensureSteppedUp}
          onClose={() => setAdding(false)}
          onCreated={(directory) => {
            setAdding(false);
            setShown({ reason: "created", directory });
          }}
        />
      ) : null}

      {asking?.kind === "delete" ? (
        <ConfirmDialog
          title="Delete this directory?"
          confirmLabel="Delete directory"
          pending={remove.isPending}
          error={askError}
          onConfirm={confirm}
          onCancel={() => setAsking(null)}
        >
          <p>
            {name(asking.directory)} stops answering {idp(asking.directory)}. Its users are deprovisioned first: the console memberships it
            gave end, with their API tokens and sessions in this tenant. Then its users, groups and sync activity are deleted. This cannot
            be undone.
          </p>
          <p>You will be asked for your password first if you have not confirmed it in the last 10 minutes.</p>
        </ConfirmDialog>
      ) : null}

      {asking?.kind === "rotate" ? (
        <ConfirmDialog
          title="Rotate the SCIM token?"
          confirmLabel="Rotate token"
          tone="primary"
          pending={rotate.isPending}
          error={askError}
          onConfirm={confirm}
          onCancel={() => setAsking(null)}
        >
          <p>
            A new token is generated for {name(asking.directory)} and shown to you once. The old one stops working at once: until you paste
            the new one into {idp(asking.directory)}, its sync requests are refused.
          </p>
          <p>You will be asked for your password first if you have not confirmed it in the last 10 minutes.</p>
        </ConfirmDialog>
      ) : null}

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
      {stepUpDialog}
    </>
  );

  return {
    add: () => setAdding(true),
    askDelete: ask("delete"),
    askRotate: ask("rotate"),
    setEnabled: (directory, enabled) => void setEnabled(directory, enabled),
    saveRoles,
    switching: (directory) => update.isPending && update.variables?.directory_id === directory.id && update.variables.enabled !== undefined,
    dialogs,
  };
}
