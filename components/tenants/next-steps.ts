/**
 * The Overview's next steps for a tenant: who is in it, its verified domain, SSO, Directory Sync
 * and webhooks, each with its state in words, whether it is done, where its page is and what an
 * admin would do there next. Pure: the lists come from the pages' own queries (./tenant-next-steps.tsx).
 */
import { consoleUrl } from "../console/urls";

/** What the Overview knows of each list: its total, and (first page) the items that say more. */
export interface NextStepsData {
  members?: { count: number };
  domains?: { count: number; results: Array<{ domain: string; state: "pending" | "verified" | "failed" }> };
  sso?: { count: number; results: Array<{ name: string; enabled: boolean }> };
  directories?: { count: number; results: Array<{ name: string }> };
  webhooks?: { count: number; results: Array<{ enabled: boolean }> };
}

export type StepKey = "members" | "domains" | "sso" | "directories" | "webhooks";

export interface NextStep {
  key: StepKey;
  title: string;
  /** The state in words ("2 members", "No verified domain"); null while it loads. */
  state: string | null;
  done: boolean;
  href: string;
  /** What an admin would do next there; null once done. */
  action: string | null;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function more(names: string[]): string {
  return names.length > 1 ? `${names[0]} and ${names.length - 1} more` : (names[0] ?? "");
}

/** The steps in the order that works: people, then the domain SSO needs, SSO, Directory Sync, webhooks. */
export function nextSteps(tenantId: string, data: NextStepsData): NextStep[] {
  const { members, domains, sso, directories, webhooks } = data;
  const step = (key: StepKey, title: string, href: string, state: string | null, done: boolean, action: string) => ({
    key,
    title,
    href,
    state,
    done,
    action: done ? null : action,
  });

  const verified = domains?.results.filter((d) => d.state === "verified").map((d) => d.domain) ?? [];
  const pending = domains?.results.filter((d) => d.state !== "verified").map((d) => d.domain) ?? [];
  const enabled = sso?.results.filter((p) => p.enabled).map((p) => p.name) ?? [];

  return [
    step(
      "members",
      "Members",
      consoleUrl.members(tenantId),
      members ? (members.count === 0 ? "No members yet" : plural(members.count, "member")) : null,
      (members?.count ?? 0) > 1,
      members?.count ? "Invite your team" : "Invite members",
    ),
    step(
      "domains",
      "Domain",
      consoleUrl.domains(tenantId),
      !domains
        ? null
        : verified.length
          ? `Verified: ${more(verified)}`
          : pending.length
            ? `No verified domain: ${more(pending)} waits for its DNS record`
            : "No verified domain",
      verified.length > 0,
      "Verify a domain",
    ),
    step(
      "sso",
      "SSO",
      consoleUrl.sso(tenantId),
      !sso
        ? null
        : enabled.length
          ? `SSO: on through ${more(enabled)}`
          : sso.count
            ? `SSO: ${plural(sso.count, "provider")}, not enabled yet (test sign-in, then enable)`
            : "SSO: not configured",
      enabled.length > 0,
      sso?.count ? "Test and enable" : "Add a provider",
    ),
    step(
      "directories",
      "Directory Sync",
      consoleUrl.directories(tenantId),
      !directories ? null : directories.count ? `Connected: ${more(directories.results.map((d) => d.name))}` : "No directory connected",
      (directories?.count ?? 0) > 0,
      "Connect a directory",
    ),
    step(
      "webhooks",
      "Webhooks",
      consoleUrl.webhooks(tenantId),
      !webhooks ? null : webhooks.count ? plural(webhooks.count, "webhook") : "No webhooks",
      (webhooks?.count ?? 0) > 0,
      "Add a webhook",
    ),
  ];
}
