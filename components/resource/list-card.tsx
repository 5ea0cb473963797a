"use client";

import type { ReactNode } from "react";
import { Card, CardHeader } from "../ui/card";
import { AddButton, readOnlyBadge } from "./parts";

interface ListCardProps {
  /** Prefix of the title's id (`${id}-title`), which names the card. */
  id: string;
  title: string;
  /** What the list is, to those who may change it (and while the role loads)… */
  description: string;
  /** …and to those who may only look. */
  readOnlyDescription: string;
  canWrite: boolean;
  loadingRole: boolean;
  /** The header's add button ("Add webhook"); viewers see a Read-only badge instead. */
  add: { label: string; onClick: () => void };
  /** The table. */
  children: ReactNode;
}

/** The card a resource's list sits in: its title, what it is for, and the add button. */
export function ListCard({ id, title, description, readOnlyDescription, canWrite, loadingRole, add, children }: ListCardProps) {
  return (
    <Card aria-labelledby={`${id}-title`}>
      <CardHeader
        title={<span id={`${id}-title`}>{title}</span>}
        description={canWrite || loadingRole ? description : readOnlyDescription}
        actions={canWrite ? <AddButton {...add} /> : readOnlyBadge(canWrite, loadingRole)}
      />
      {children}
    </Card>
  );
}
