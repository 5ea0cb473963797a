"use client";

import type { ReactNode } from "react";
import Link from "next/link";
import type { UseQueryResult } from "@tanstack/react-query";
import { messageOf, statusOf } from "../trpc";
import { buttonClasses, Button } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { EmptyState } from "../ui/empty-state";
import { LoadError } from "../ui/list-states";
import { Skeleton } from "../ui/skeleton";
import { AlertIcon, ChevronLeftIcon } from "../icons";
import { readOnlyBadge, type ActionIcon } from "./parts";

/** The way back to the list above a resource's page ("All webhooks"). */
export function BackLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link
      href={href}
      className="mb-4 inline-flex items-center gap-1 rounded text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <ChevronLeftIcon className="size-4" />
      {children}
    </Link>
  );
}

interface DetailsFrameProps<T> {
  query: UseQueryResult<T, unknown>;
  /** The list this resource is in: where the back link and the "does not exist" state lead. */
  list: { href: string; back: string };
  /** The resource in words: "webhook" → "This webhook does not exist", "The webhook could not be loaded". */
  noun: string;
  /** Where the "does not exist" state leads: "Back to {missingBack}". */
  missingBack: string;
  /** Why it may be gone; by default that it may have been deleted. */
  missingHint?: string;
  /** Placeholder lines' widths while the resource loads. */
  skeleton?: string[];
  /** Between the back link and the page, once loaded (a notice about the resource). */
  banner?: (resource: T) => ReactNode;
  /** The page's cards, spaced one under the other. */
  children: (resource: T) => ReactNode;
  /** After the page, once loaded: the dialogs of its actions. */
  dialogs?: ReactNode;
}

/**
 * A resource's page: the back link to its list, then the resource's cards once loaded; while it
 * loads, placeholders; when it is gone (404), the way back; on another error, the reason and a retry.
 */
export function DetailsFrame<T>({
  query,
  list,
  noun,
  missingBack,
  missingHint = "It may have been deleted. Pick one from the list.",
  skeleton = ["w-2/3", "w-1/2", "w-1/3"],
  banner,
  children,
  dialogs,
}: DetailsFrameProps<T>) {
  const back = <BackLink href={list.href}>{list.back}</BackLink>;
  if (query.isPending) {
    return (
      <>
        {back}
        <Card aria-busy="true">
          <div className="space-y-4 p-6">
            {skeleton.map((width, i) => (
              <Skeleton key={i} className={`${i === 0 ? "h-5" : "h-4"} ${width}`} />
            ))}
          </div>
        </Card>
      </>
    );
  }

  if (query.isError) {
    return (
      <>
        {back}
        <Card>
          {statusOf(query.error) === 404 ? (
            <EmptyState
              icon={<AlertIcon className="size-6" />}
              title={`This ${noun} does not exist`}
              description={missingHint}
              action={
                <Link href={list.href} className={buttonClasses("secondary")}>
                  {`Back to ${missingBack}`}
                </Link>
              }
            />
          ) : (
            <LoadError
              title={`The ${noun} could not be loaded`}
              message={messageOf(query.error)}
              onRetry={() => query.refetch()}
              retrying={query.isFetching}
            />
          )}
        </Card>
      </>
    );
  }

  return (
    <>
      {back}
      {banner?.(query.data)}
      <div className="space-y-6">{children(query.data)}</div>
      {dialogs}
    </>
  );
}

/** A button of a resource's page; the first is usually the primary one. */
export interface PageAction {
  label: string;
  icon?: ActionIcon;
  onClick: () => void;
  primary?: boolean;
  /** A spinner in place of the icon, and the button disabled. */
  loading?: boolean;
  disabled?: boolean;
  /** The id of a hint that says why it is disabled. */
  describedBy?: string;
}

interface DetailsCardProps {
  /** Prefix of the title's id (`${id}-title`), which names the card. */
  id: string;
  title: ReactNode;
  description?: ReactNode;
  canWrite: boolean;
  loadingRole: boolean;
  /** The writer's buttons, in a row under the header; viewers see a Read-only badge instead. */
  actions: PageAction[];
  /** The rest of the card's body: hints, results, the facts. */
  children: ReactNode;
}

/** The first card of a resource's page: its name and subtitle, the writer's buttons, then its facts. */
export function DetailsCard({ id, title, description, canWrite, loadingRole, actions, children }: DetailsCardProps) {
  return (
    <Card aria-labelledby={`${id}-title`}>
      <CardHeader
        title={
          <span id={`${id}-title`} className="wrap-anywhere">
            {title}
          </span>
        }
        description={description}
        actions={readOnlyBadge(canWrite, loadingRole)}
      />
      <div className="space-y-5 px-4 py-4 sm:px-6">
        {canWrite ? (
          <div className="flex flex-wrap gap-2">
            {actions.map(({ label, icon: Icon, onClick, primary, loading, disabled, describedBy }, i) => (
              <Button
                // By place, not label: Pause turning into Resume stays the same button (and keeps the focus).
                key={i}
                variant={primary ? "primary" : "secondary"}
                onClick={onClick}
                loading={loading}
                disabled={disabled}
                aria-describedby={describedBy}
              >
                {loading || !Icon ? null : <Icon className="size-4" />}
                {label}
              </Button>
            ))}
          </div>
        ) : null}
        {children}
      </div>
    </Card>
  );
}
