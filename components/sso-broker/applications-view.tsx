"use client";

import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SsoApplication } from "@/server/sso/broker/schemas";
import { messageOf, useTRPC } from "../trpc";
import { Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { PageHeader } from "../ui/page-header";
import { FIRST_PAGE, type TablePosition } from "../ui/pagination";
import { useToast } from "../ui/toast";
import { PlusIcon } from "../icons";
import { ApplicationsTable } from "./applications-table";
import { CreateApplicationDialog } from "./create-application-dialog";
import { NewSecretPanel, type ShownSecret } from "./new-secret-panel";

/** Applications page (operators): the OAuth broker's applications; register one, rotate its secret, delete it. */
export function ApplicationsView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const notify = useToast();
  const [position, setPosition] = useState<TablePosition>(FIRST_PAGE);
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const [rotating, setRotating] = useState<SsoApplication | null>(null);
  const [deleting, setDeleting] = useState<SsoApplication | null>(null);

  const refresh = () => queryClient.invalidateQueries(trpc.ssoApplications.list.pathFilter());
  const rotate = useMutation(trpc.ssoApplications.rotateSecret.mutationOptions());
  const remove = useMutation(trpc.ssoApplications.delete.mutationOptions({ onSuccess: refresh }));

  const createButton = (
    <Button onClick={() => setCreating(true)}>
      <PlusIcon className="size-4" />
      Register application
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Applications"
        description="The platform's apps that sign people in through their company's SSO: /api/sso/authorize, /token and /profile (OAuth 2.0 with PKCE)."
        actions={createButton}
      />
      <div className="space-y-6">
        {shown ? <NewSecretPanel secret={shown} onDismiss={() => setShown(null)} /> : null}
        <Card aria-labelledby="applications-title">
          <CardHeader title={<span id="applications-title">Registered applications</span>} />
          <ApplicationsTable
            position={position}
            onMove={setPosition}
            highlightId={shown?.id}
            onRotate={(application) => {
              rotate.reset();
              setRotating(application);
            }}
            onDelete={(application) => {
              remove.reset();
              setDeleting(application);
            }}
            emptyAction={createButton}
          />
        </Card>
      </div>

      {creating ? (
        <CreateApplicationDialog
          onClose={() => setCreating(false)}
          onCreated={(created) => {
            setCreating(false);
            setShown(created);
            setPosition(FIRST_PAGE);
            void refresh();
          }}
        />
      ) : null}

      {rotating ? (
        <ConfirmDialog
          title="Rotate the client secret?"
          confirmLabel="Rotate secret"
          pending={rotate.isPending}
          error={rotate.isError ? messageOf(rotate.error) : null}
          onCancel={() => setRotating(null)}
          onConfirm={() =>
            rotate.mutate(
              { application_id: rotating.id },
              {
                onSuccess: (application) => {
                  setRotating(null);
                  setShown({
                    id: application.id,
                    name: application.name,
                    clientId: application.client_id,
                    clientSecret: application.client_secret,
                  });
                },
              },
            )
          }
        >
          <p>
            <span className="font-medium text-slate-900">{rotating.name}</span> gets a new secret, shown once. The current secret stops
            working at once.
          </p>
        </ConfirmDialog>
      ) : null}

      {deleting ? (
        <ConfirmDialog
          title="Delete application?"
          confirmLabel="Delete application"
          pending={remove.isPending}
          error={remove.isError ? messageOf(remove.error) : null}
          onCancel={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(
              { application_id: deleting.id },
              {
                onSuccess: () => {
                  if (shown?.id === deleting.id) setShown(null);
                  setDeleting(null);
                  notify(
                    <>
                      Application <span className="font-medium">{deleting.name}</span> deleted.
                    </>,
                  );
                },
              },
            )
          }
        >
          <p>
            <span className="font-medium text-slate-900">{deleting.name}</span> can no longer sign anyone in; its codes and access tokens
            stop working. This cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
