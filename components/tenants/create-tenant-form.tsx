"use client";

import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CreateTenantInput, MAX_TENANT_NAME_LENGTH } from "@/server/tenants/schemas";
import { schemaErrors, serverErrors, useFormErrors } from "../form-errors";
import { useTRPC } from "../trpc";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Card, CardBody, CardHeader } from "../ui/card";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { useToast } from "../ui/toast";
import { PlusIcon } from "../icons";
import { useHydrated } from "../use-hydrated";
import { shortTenantId } from "./tenant-label";
import { useTenantSearch } from "./use-tenant-search";

export const TENANT_NAME_INPUT_ID = "tenant-name";

/** Existing tenants with exactly this name (any case): creating another is allowed, but worth a warning. */
function useNamesakes(name: string) {
  const wanted = name.trim().toLowerCase();
  const matches = useTenantSearch(name, { pageSize: 50, enabled: wanted.length > 0, advisory: true });
  if (!wanted || !matches.settled) return [];
  return (matches.data?.results ?? []).filter((tenant) => tenant.name.toLowerCase() === wanted);
}

/** "must not be empty" on `name` reads as "Name must not be empty". */
const LABELS = { name: "Name" };
const ORDER: Array<[string, string]> = [["name", TENANT_NAME_INPUT_ID]];

/** Operators create tenants here; the same zod schema as the API checks the name first. */
export function CreateTenantForm({ onCreated }: { onCreated: (tenantId: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const notify = useToast();
  const hydrated = useHydrated();
  const [name, setName] = useState("");
  const { errors, formError, setFormError, show, clear, fail } = useFormErrors(ORDER);
  const namesakes = useNamesakes(name);

  const create = useMutation(
    trpc.tenants.create.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.tenants.list.pathFilter()),
    }),
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const parsed = CreateTenantInput.safeParse({ name });
    if (!parsed.success) {
      show(schemaErrors(parsed.error, LABELS));
      return;
    }
    show({});
    create.mutate(parsed.data, {
      onSuccess: (tenant) => {
        setName("");
        notify(
          <>
            Tenant <span className="font-medium">{tenant.name}</span> created.
          </>,
        );
        onCreated(tenant.id);
      },
      onError: (error) => fail(error, serverErrors(error, LABELS)),
    });
  }

  return (
    <Card aria-labelledby="create-tenant-title">
      <CardHeader title={<span id="create-tenant-title">Create a tenant</span>} />
      <CardBody>
        <form onSubmit={submit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <Field
            id={TENANT_NAME_INPUT_ID}
            label="Name"
            hint={errors.name ? undefined : `Up to ${MAX_TENANT_NAME_LENGTH} characters, e.g. Acme Corp.`}
            error={errors.name}
            className="sm:max-w-md sm:flex-1"
          >
            {(control) => (
              <Input
                {...control}
                name="name"
                autoComplete="off"
                value={name}
                onChange={(event) => {
                  setName(event.target.value);
                  clear("name");
                }}
              />
            )}
          </Field>
          <Button type="submit" disabled={!hydrated} loading={create.isPending} className="sm:mt-[1.625rem]">
            {create.isPending ? null : <PlusIcon className="size-4" />}
            Create tenant
          </Button>
        </form>
        {namesakes.length > 0 && !create.isPending ? (
          <Alert tone="warning" className="mt-4">
            {namesakes.length === 1 ? "A tenant" : `${namesakes.length} tenants`} named “{namesakes[0]!.name}” already{" "}
            {namesakes.length === 1 ? "exists" : "exist"} ({namesakes.map((t) => shortTenantId(t.id)).join(", ")}). You can still create
            another; the start of its ID tells them apart.
          </Alert>
        ) : null}
        {formError ? (
          <Alert tone="danger" className="mt-4">
            {formError}
          </Alert>
        ) : null}
      </CardBody>
    </Card>
  );
}
