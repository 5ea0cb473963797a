"use client";

import type { ReactNode } from "react";
import Link from "next/link";
import { Button } from "../ui/button";
import { cx } from "../ui/cx";
import { actionsColumn, type ListColumn } from "../ui/list-table";
import { Skeleton } from "../ui/skeleton";
import { Td, Tr } from "../ui/table";
import { EnabledSwitch, type ActionIcon, type EnabledSwitchProps } from "./parts";

/** The list's column of the on/off switches. */
export const enabledColumn: ListColumn = { header: "Enabled", skeleton: <Skeleton className="h-6 w-11 rounded-full" /> };

/** The column of the rows' buttons, for writers only, hidden on phones as the buttons are: spread it last. */
export function rowActionsColumn(canWrite: boolean): ListColumn[] {
  return canWrite ? [actionsColumn("hidden sm:table-cell")] : [];
}

/** An icon button of a row; the row's buttons are hidden on phones, where the resource's page has them. */
export interface RowAction {
  icon: ActionIcon;
  /** The tooltip ("Delete"). */
  title: string;
  /** The accessible name, naming the resource ("Delete https://…"). */
  label: string;
  onClick: () => void;
  /** A spinner in place of the icon, and the button disabled. */
  loading?: boolean;
  disabled?: boolean;
}

interface ResourceRowProps {
  /** The row's test id and data attributes (`data-webhook-id`). */
  attrs: { "data-testid": string } & Record<`data-${string}-id`, string>;
  /** The resource's name, a link to its page. */
  name: string;
  href: string;
  /** Lines under the name: what it is, and on phones what the hidden columns say. */
  children?: ReactNode;
  /** The columns between the name and the switch. */
  cells?: ReactNode;
  /** The on/off switch, in its own column. */
  toggle?: EnabledSwitchProps;
  /** The writer's buttons; null for viewers (the list has no actions column then). */
  actions: RowAction[] | null;
  /** Just added or saved. */
  highlight?: boolean;
}

/** One resource in its list: its name leading to its page, its columns, its switch and icon buttons. */
export function ResourceRow({ attrs, name, href, children, cells, toggle, actions, highlight }: ResourceRowProps) {
  return (
    <Tr {...attrs} className={cx(highlight && "bg-indigo-50/60")}>
      <Td className="w-full max-w-0">
        <Link
          href={href}
          className="block font-medium whitespace-normal wrap-anywhere text-slate-900 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          {name}
        </Link>
        {children}
      </Td>
      {cells}
      {toggle ? (
        <Td>
          <EnabledSwitch {...toggle} />
        </Td>
      ) : null}
      {actions ? (
        <Td className="hidden sm:table-cell">
          <div className="flex justify-end gap-0.5">
            {actions.map(({ icon: Icon, title, label, onClick, loading, disabled }, i) => (
              <Button
                // By place: a tooltip that changes with the state keeps the same button.
                key={i}
                variant="ghost"
                size="sm"
                onClick={onClick}
                loading={loading}
                disabled={disabled}
                title={title}
                aria-label={label}
              >
                {loading ? null : <Icon className="size-4" />}
              </Button>
            ))}
          </div>
        </Td>
      ) : null}
    </Tr>
  );
}
