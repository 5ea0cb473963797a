"use client";

import { useState, type FormEvent } from "react";
import { MAX_ROLE_MAPPINGS } from "@/server/directories/schemas";
import { fieldErrorsOf, messageOf } from "../trpc";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { Input } from "../ui/input";
import { Select } from "../ui/select";
import { ChevronDownIcon, PlusIcon, TrashIcon } from "../icons";
import { Checkbox } from "../ui/checkbox";
import type { DirectoryGrants } from "./use-directory-actions";
import type { Directory, DirectoryRole, RoleMapping } from "./types";

type DefaultRole = Directory["default_role"];
/** A row being edited; `key` keeps React's rows apart while they move. */
type Row = RoleMapping & { key: number };

const roleLabel = (role: DefaultRole) => (role === "admin" ? "Admin" : role === "viewer" ? "Viewer" : "No membership");

function sameRoles(rows: Row[], defaultRole: DefaultRole, governs: boolean, directory: Directory): boolean {
  return (
    defaultRole === directory.default_role &&
    governs === directory.governs_existing_members &&
    rows.length === directory.role_mappings.length &&
    rows.every((row, i) => row.group.trim() === directory.role_mappings[i]!.group && row.role === directory.role_mappings[i]!.role)
  );
}

/** "role_mappings.2.group" → the row and field the server's message is about. */
function serverRowErrors(error: unknown): Record<number, string> {
  const errors: Record<number, string> = {};
  for (const { path, message } of fieldErrorsOf(error)) {
    const match = /^role_mappings\.(\d+)\.(group|role)$/.exec(path);
    if (match) errors[Number(match[1])] ??= `${match[2] === "group" ? "Group" : "Role"} ${message}`;
  }
  return errors;
}

function ReadOnlyMappings({ directory }: { directory: Directory }) {
  return (
    <div className="space-y-3 px-4 py-4 text-sm sm:px-6">
      {directory.role_mappings.length === 0 ? (
        <p className="text-slate-600">No groups are mapped to roles.</p>
      ) : (
        <ol className="space-y-1.5" data-testid="role-mappings">
          {directory.role_mappings.map((mapping, i) => (
            <li key={i} className="flex flex-wrap items-center gap-2">
              <span className="w-5 text-right text-xs text-slate-500 tabular-nums">{i + 1}.</span>
              <span className="font-medium break-all text-slate-900">{mapping.group}</span>
              <span className="text-slate-500">→</span>
              <span className="capitalize">{mapping.role}</span>
            </li>
          ))}
        </ol>
      )}
      <p>
        Anyone else: <span className="font-medium text-slate-900">{roleLabel(directory.default_role)}</span>
      </p>
      <p data-testid="governs-existing">
        {directory.governs_existing_members
          ? "It also governs members who joined another way (invited, added, through SSO)."
          : "It governs only the memberships it created: members who joined another way keep their role."}
      </p>
    </div>
  );
}

/**
 * Which console role a directory's people get: ordered rows `{group, role}` (the first row one of
 * their groups matches wins) and the role of everyone in no mapped group. Saving recomputes every
 * member's role at once. Viewers read the same rules without the controls.
 */
export function RoleMappingsEditor({
  directory,
  canWrite,
  groupNames,
  onSave,
}: {
  directory: Directory;
  canWrite: boolean;
  /** The directory's group names, offered as suggestions. */
  groupNames: string[];
  onSave: (roles: DirectoryGrants) => Promise<boolean>;
}) {
  const [nextKey, setNextKey] = useState(directory.role_mappings.length);
  const [rows, setRows] = useState<Row[]>(() => directory.role_mappings.map((mapping, key) => ({ ...mapping, key })));
  const [defaultRole, setDefaultRole] = useState<DefaultRole>(directory.default_role);
  const [governs, setGoverns] = useState(directory.governs_existing_members);
  const [rowErrors, setRowErrors] = useState<Record<number, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const unchanged = sameRoles(rows, defaultRole, governs, directory);

  const change = (next: Row[]) => {
    setRows(next);
    setRowErrors({});
    setError(null);
  };
  const add = () => {
    change([...rows, { key: nextKey, group: "", role: "viewer" }]);
    setNextKey(nextKey + 1);
    // The new row's group field takes the focus once rendered.
    setTimeout(() => document.getElementById(`mapping-group-${nextKey}`)?.focus(), 0);
  };
  const move = (i: number, by: -1 | 1) => {
    const next = [...rows];
    [next[i], next[i + by]] = [next[i + by]!, next[i]!];
    change(next);
  };
  const reset = () => {
    change(directory.role_mappings.map((mapping, key) => ({ ...mapping, key: nextKey + key })));
    setNextKey(nextKey + directory.role_mappings.length);
    setDefaultRole(directory.default_role);
    setGoverns(directory.governs_existing_members);
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const blank = Object.fromEntries(rows.flatMap((row, i) => (row.group.trim() ? [] : [[i, "Group must not be empty"]])));
    if (Object.keys(blank).length > 0) {
      setRowErrors(blank);
      document.getElementById(`mapping-group-${rows[Number(Object.keys(blank)[0])]!.key}`)?.focus();
      return;
    }
    setSaving(true);
    try {
      await onSave({
        role_mappings: rows.map(({ group, role }) => ({ group: group.trim(), role })),
        default_role: defaultRole,
        governs_existing_members: governs,
      });
    } catch (failure) {
      const errors = serverRowErrors(failure);
      if (Object.keys(errors).length > 0) setRowErrors(errors);
      else setError(messageOf(failure));
    } finally {
      setSaving(false);
    }
  }

  const description =
    "A person takes the role of the first row one of their groups matches (by name, any case, or IdP id). Only people in this tenant's verified domains get a role. Saving needs you to confirm it's you, and recomputes everyone's role at once.";
  if (!canWrite) {
    return (
      <Card aria-labelledby="role-mappings-title">
        <CardHeader as="h3" title={<span id="role-mappings-title">Role mappings</span>} description={description} />
        <ReadOnlyMappings directory={directory} />
      </Card>
    );
  }

  return (
    <Card aria-labelledby="role-mappings-title">
      <CardHeader as="h3" title={<span id="role-mappings-title">Role mappings</span>} description={description} />
      <form onSubmit={submit} noValidate className="space-y-4 px-4 py-4 sm:px-6">
        <datalist id="directory-group-names">
          {groupNames.map((groupName) => (
            <option key={groupName} value={groupName} />
          ))}
        </datalist>
        {rows.length === 0 ? (
          <p className="text-sm text-slate-600">
            No groups are mapped yet. Add a row for each IdP group whose members should get a console role, e.g. Engineering → Viewer.
          </p>
        ) : (
          <ol className="space-y-3" data-testid="role-mappings">
            {rows.map((row, i) => (
              <li key={row.key} data-testid="role-mapping" className="space-y-1">
                <div className="flex items-start gap-2">
                  <span className="w-5 shrink-0 pt-2 text-right text-xs text-slate-500 tabular-nums" aria-hidden="true">
                    {i + 1}.
                  </span>
                  <div className="grid min-w-0 flex-1 grid-cols-[minmax(0,1fr)_auto] items-center gap-2 sm:grid-cols-[minmax(0,1fr)_7rem_auto]">
                    <div className="col-span-2 min-w-0 sm:col-span-1">
                      <label htmlFor={`mapping-group-${row.key}`} className="sr-only">
                        Group of row {i + 1}
                      </label>
                      <Input
                        id={`mapping-group-${row.key}`}
                        list="directory-group-names"
                        autoComplete="off"
                        placeholder="Group name or IdP id"
                        value={row.group}
                        aria-invalid={rowErrors[i] ? true : undefined}
                        aria-describedby={rowErrors[i] ? `mapping-error-${row.key}` : undefined}
                        onChange={(event) => change(rows.map((r) => (r.key === row.key ? { ...r, group: event.target.value } : r)))}
                      />
                    </div>
                    <div>
                      <label htmlFor={`mapping-role-${row.key}`} className="sr-only">
                        Role of row {i + 1}
                      </label>
                      <Select
                        id={`mapping-role-${row.key}`}
                        value={row.role}
                        onChange={(event) =>
                          change(rows.map((r) => (r.key === row.key ? { ...r, role: event.target.value as DirectoryRole } : r)))
                        }
                      >
                        <option value="viewer">Viewer</option>
                        <option value="admin">Admin</option>
                      </Select>
                    </div>
                    <div className="flex gap-0.5">
                      <Button variant="ghost" size="sm" disabled={i === 0} onClick={() => move(i, -1)} aria-label={`Move row ${i + 1} up`}>
                        <ChevronDownIcon className="size-4 rotate-180" />
                      </Button>
                      <Button
                        variant="ghost"
                        size="sm"
                        disabled={i === rows.length - 1}
                        onClick={() => move(i, 1)}
                        aria-label={`Move row ${i + 1} down`}
                      >
                        <ChevronDownIcon className="size-4" />
                      </Button>
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => change(rows.filter((r) => r.key !== row.key))}
                        aria-label={`Remove row ${i + 1}`}
                      >
                        <TrashIcon className="size-4" />
                      </Button>
                    </div>
                  </div>
                </div>
                {rowErrors[i] ? (
                  <p id={`mapping-error-${row.key}`} className="pl-7 text-sm text-red-700">
                    {rowErrors[i]}
                  </p>
                ) : null}
              </li>
            ))}
          </ol>
        )}
        <Button variant="secondary" size="sm" onClick={add} disabled={rows.length >= MAX_ROLE_MAPPINGS}>
          <PlusIcon className="size-4" />
          Add mapping
        </Button>
        <div className="max-w-xs space-y-1.5">
          <label htmlFor="default-role" className="block text-sm font-medium text-slate-700">
            Everyone in no mapped group
          </label>
          <Select
            id="default-role"
            value={defaultRole ?? ""}
            onChange={(event) => {
              setDefaultRole(event.target.value === "" ? null : (event.target.value as DirectoryRole));
              setError(null);
            }}
          >
            <option value="">No membership</option>
            <option value="viewer">Viewer</option>
            <option value="admin">Admin</option>
          </Select>
        </div>
        <Checkbox
          id="governs-existing-members"
          checked={governs}
          onChange={(event) => {
            setGoverns(event.target.checked);
            setError(null);
          }}
          label="Also govern members who joined another way"
          description="Off: the directory sets the role of, and removes, only the members it added. On: it also takes over members who were invited, added or joined through SSO when it holds their email, and removes them when they leave the IdP. The tenant's last admin is never removed."
        />
        {error ? <Alert tone="danger">{error}</Alert> : null}
        <div className="flex flex-wrap gap-2 border-t border-slate-200 pt-4">
          <Button type="submit" loading={saving} disabled={unchanged}>
            Save role mappings
          </Button>
          <Button variant="secondary" onClick={reset} disabled={unchanged || saving}>
            Discard changes
          </Button>
        </div>
      </form>
    </Card>
  );
}
