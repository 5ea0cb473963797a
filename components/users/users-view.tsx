"use client";

import { useState } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PlatformUser } from "@/server/account/schemas";
import type { PlatformRole } from "@/server/auth/principal";
import { useConsoleUser } from "../console/user-context";
import { consoleUrl } from "../console/urls";
import { messageOf, useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { PageHeader } from "../ui/page-header";
import { FIRST_PAGE, type TablePosition } from "../ui/pagination";
import { SearchBox } from "../ui/search-box";
import { Select } from "../ui/select";
import { useToast } from "../ui/toast";
import { PlusIcon } from "../icons";
import { CreateUserDialog } from "./create-user-dialog";
import { PLATFORM_ROLE_LABEL } from "./roles";
import { UsersTable } from "./users-table";

const roleText = (role: PlatformRole | null) => (role ? PLATFORM_ROLE_LABEL[role].toLowerCase() : "a tenant user (no platform role)");

/**
 * Operators manage the platform's staff: search, create, change platform roles; support staff
 * search and look. Search and scope live in the URL.
 */
export function UsersView() {
  const me = useConsoleUser();
  const canManage = me.platformRole === "operator";
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const notify = useToast();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const search = params.get("search") ?? "";
  const everyone = params.get("show") === "all";
  const [position, setPosition] = useState<TablePosition>(FIRST_PAGE);
  const [creating, setCreating] = useState(false);
  const [highlightId, setHighlightId] = useState<string | null>(null);
  const [promoting, setPromoting] = useState<PlatformUser | null>(null);
  const [error, setError] = useState<string | null>(null);
  const update = useMutation(trpc.users.update.mutationOptions());

  function setParam(key: string, value: string | null) {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setPosition(FIRST_PAGE);
    router.replace(consoleUrl.withQuery(pathname, next), { scroll: false });
  }

  function changeRole(user: PlatformUser, role: PlatformRole | null) {
    setError(null);
    update.mutate(
      { user_id: user.id, platform_role: role },
      {
        onSuccess: (updated) => {
          setPromoting(null);
          void queryClient.invalidateQueries(trpc.users.list.pathFilter());
          notify(
            <>
              <span className="font-medium">{updated.email}</span> is now {roleText(updated.platform_role)}.
            </>,
          );
          // Demoting yourself changes what this console may show: reload it with the new role.
          if (updated.id === me.userId) router.refresh();
        },
        onError: (failure) => {
          setPromoting(null);
          setError(messageOf(failure));
        },
      },
    );
  }

  return (
    <>
      <PageHeader
        title="Platform users"
        description={
          canManage
            ? "Operators and support staff of the platform. Operators create tenants and platform users; support can see everything and change nothing."
            : "Operators and support staff of the platform. You have support access: you can look, and operators make changes."
        }
        actions={
          canManage ? (
            <Button onClick={() => setCreating(true)}>
              <PlusIcon className="size-4" />
              Create user
            </Button>
          ) : null
        }
      />
      <div className="space-y-4">
        {error ? (
          <Alert tone="danger" title="The role was not changed">
            {error}
          </Alert>
        ) : null}
        <Card aria-labelledby="users-list-title">
          <CardHeader
            as="h2"
            title={<span id="users-list-title">{everyone ? "All users" : "Platform staff"}</span>}
            actions={
              <div className="flex w-full flex-col gap-2 sm:w-auto sm:flex-row">
                <Select
                  aria-label="Show"
                  value={everyone ? "all" : "staff"}
                  onChange={(event) => setParam("show", event.target.value === "all" ? "all" : null)}
                  className="sm:w-44"
                >
                  <option value="staff">Platform staff</option>
                  <option value="all">All users</option>
                </Select>
                <SearchBox
                  id="user-search"
                  label="Search users"
                  placeholder="Search by email, name or ID"
                  value={search}
                  onChange={(value) => setParam("search", value || null)}
                />
              </div>
            }
          />
          <UsersTable
            search={search}
            staffOnly={!everyone}
            position={position}
            onMove={setPosition}
            selfId={me.userId}
            pendingId={update.isPending ? (update.variables?.user_id ?? null) : null}
            highlightId={highlightId}
            onChangeRole={canManage ? (user, role) => (role === "operator" ? setPromoting(user) : changeRole(user, role)) : null}
          />
        </Card>
      </div>

      {creating ? (
        <CreateUserDialog
          onClose={() => setCreating(false)}
          onCreated={(user) => {
            setCreating(false);
            setHighlightId(user.id);
            setPosition(FIRST_PAGE);
            void queryClient.invalidateQueries(trpc.users.list.pathFilter());
            notify(
              <>
                <span className="font-medium">{user.email}</span> can now sign in as {roleText(user.platform_role)}.
              </>,
            );
          }}
        />
      ) : null}

      {promoting ? (
        <ConfirmDialog
          title={`Make ${promoting.email} an operator?`}
          confirmLabel="Make operator"
          tone="primary"
          pending={update.isPending}
          onCancel={() => setPromoting(null)}
          onConfirm={() => changeRole(promoting, "operator")}
        >
          <p>
            Operators can create and change every tenant, create platform users and change anyone&apos;s platform role, including yours.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
