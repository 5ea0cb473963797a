"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { directoriesInput } from "../directories/queries";
import { domainsInput } from "../domains/queries";
import { membersInput } from "../members/queries";
import { webhooksInput } from "../webhooks/queries";
import { useTRPC } from "../trpc";
import { buttonClasses } from "../ui/button";
import { Card, CardHeader } from "../ui/card";
import { cx } from "../ui/cx";
import { nextSteps, type NextStep } from "./next-steps";
import { overviewSsoInput } from "./queries";

/**
 * The Overview's next steps: each area a new tenant sets up, with its state, linking to its page.
 * The lists are the pages' own first queries (run on the server with the page: app/pages.ts), so
 * the numbers are the ones those pages show. Admins get the next action; viewers, the state alone.
 */
export function TenantNextSteps({ tenantId, canWrite }: { tenantId: string; canWrite: boolean }) {
  const trpc = useTRPC();
  const members = useQuery(trpc.members.list.queryOptions(membersInput(tenantId)));
  const domains = useQuery(trpc.domains.list.queryOptions(domainsInput(tenantId)));
  const sso = useQuery(trpc.tenantSso.list.queryOptions(overviewSsoInput(tenantId)));
  const directories = useQuery(trpc.directories.list.queryOptions(directoriesInput(tenantId)));
  const webhooks = useQuery(trpc.webhooks.list.queryOptions(webhooksInput(tenantId)));
  const steps = nextSteps(tenantId, {
    members: members.data,
    domains: domains.data,
    sso: sso.data,
    directories: directories.data,
    webhooks: webhooks.data,
  });
  const failed = { members, domains, sso, directories, webhooks };
  const done = steps.filter((s) => s.done).length;

  return (
    <Card aria-labelledby="next-steps-title">
      <CardHeader
        title={<span id="next-steps-title">Next steps</span>}
        description={`${done} of ${steps.length} done. Each links to its page.`}
      />
      <ol className="divide-y divide-slate-200" data-testid="next-steps">
        {steps.map((step) => (
          <StepRow key={step.key} step={step} canWrite={canWrite} failed={failed[step.key].isError} />
        ))}
      </ol>
    </Card>
  );
}

function StepRow({ step, canWrite, failed }: { step: NextStep; canWrite: boolean; failed: boolean }) {
  return (
    <li
      className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3.5 sm:px-6"
      data-testid={`next-step-${step.key}`}
      data-done={step.done}
    >
      <span
        aria-hidden="true"
        className={cx(
          "flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold",
          step.done ? "bg-emerald-600 text-on-solid" : "bg-slate-100 text-slate-500 ring-1 ring-slate-300 ring-inset",
        )}
      >
        {step.done ? "✓" : ""}
      </span>
      <div className="min-w-0 flex-1">
        <Link href={step.href} className="text-sm font-medium text-slate-900 hover:text-indigo-700 hover:underline">
          {step.title}
          {step.done ? <span className="sr-only"> (done)</span> : null}
        </Link>
        <p className="text-sm text-slate-600" data-testid="next-step-state">
          {failed ? "Could not be read: open the page to see why." : (step.state ?? "…")}
        </p>
      </div>
      {canWrite && step.action ? (
        <Link href={step.href} className={buttonClasses("secondary", "sm")}>
          {step.action}
        </Link>
      ) : null}
    </li>
  );
}
