"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { consoleUrl } from "../console/urls";
import { DetailsFrame } from "../resource/details-page";
import { Fact, Facts } from "../resource/facts";
import { useTRPC } from "../trpc";
import { Card, CardHeader } from "../ui/card";
import { RelativeTime } from "../ui/relative-time";
import { Skeleton } from "../ui/skeleton";
import { RoleBadge, UNLINKED_LABEL, UserState } from "./status";
import type { DirectoryUser } from "./types";
import { displayName } from "./users-section";

const LINK = "font-medium text-indigo-700 underline hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-indigo-600";

/** The console user a directory user is, and whether they are a member of this tenant right now. */
function LinkedMember({ tenantId, user }: { tenantId: string; user: DirectoryUser }) {
  const trpc = useTRPC();
  const member = useQuery({
    ...trpc.members.get.queryOptions({ tenant_id: tenantId, user_id: user.user_id ?? "" }),
    enabled: user.user_id !== null,
    retry: false,
  });
  if (!user.linked) {
    const why = user.unlinked_reason ? UNLINKED_LABEL[user.unlinked_reason].long : "";
    return (
      <span className="text-slate-600" data-testid="linked-member" data-member="unlinked" data-reason={user.unlinked_reason ?? ""}>
        None. {why}
      </span>
    );
  }
  if (user.user_id === null) {
    return (
      <span className="text-slate-600" data-testid="linked-member" data-member="none">
        Linked to a console account that is not a member of this tenant now
        {user.state === "inactive" ? " (deprovisioned)" : ""}.
      </span>
    );
  }
  if (member.isPending) return <Skeleton className="h-4 w-48" />;
  if (member.isError) {
    return (
      <span className="text-slate-600" data-testid="linked-member" data-member="none">
        Console user <code className="font-mono text-xs">{user.user_id}</code>, not a member of this tenant now
        {user.state === "inactive" ? " (deprovisioned)" : ""}.
      </span>
    );
  }
  return (
    <span data-testid="linked-member" data-member={member.data.user_id}>
      <Link href={consoleUrl.members(tenantId)} className={LINK}>
        {member.data.name ? `${member.data.name} (${member.data.email})` : member.data.email}
      </Link>
      , <span className="capitalize">{member.data.role}</span> member
    </span>
  );
}

function Attributes({ id, title, value }: { id: string; title: string; value: Record<string, unknown> }) {
  const empty = Object.keys(value).length === 0;
  return (
    <Card aria-labelledby={id}>
      <CardHeader as="h3" title={<span id={id}>{title}</span>} />
      <div className="px-4 py-4 sm:px-6">
        {empty ? (
          <p className="text-sm text-slate-600">None sent.</p>
        ) : (
          <pre
            tabIndex={0}
            aria-labelledby={id}
            className="max-h-96 overflow-auto rounded-md bg-code p-4 text-xs text-code-fg"
            data-testid={id}
          >
            {JSON.stringify(value, null, 2)}
          </pre>
        )}
      </div>
    </Card>
  );
}

/** One directory user: who they are at the IdP, their state, groups and role, and the console member they are. */
export function DirectoryUserView({ tenantId, directoryId, userId }: { tenantId: string; directoryId: string; userId: string }) {
  const trpc = useTRPC();
  const query = useQuery(
    trpc.directories.getUser.queryOptions({ tenant_id: tenantId, directory_id: directoryId, directory_user_id: userId }),
  );
  const usersHref = consoleUrl.directory(tenantId, directoryId, new URLSearchParams({ tab: "users" }));

  return (
    <DetailsFrame
      query={query}
      list={{ href: usersHref, back: "All users of the directory" }}
      noun="directory user"
      missingBack="users"
      missingHint="The identity provider may have deleted them. Pick one from the list."
      skeleton={["w-1/2", "w-1/3"]}
    >
      {(user) => (
        <>
          <Card aria-labelledby="directory-user-title">
            <CardHeader
              title={
                <span id="directory-user-title" className="wrap-anywhere">
                  {displayName(user)}
                </span>
              }
              description={<span className="wrap-anywhere">{user.user_name}</span>}
              actions={<UserState state={user.state} />}
            />
            <Facts className="px-4 py-4 sm:px-6">
              <Fact term="Console role">
                <RoleBadge role={user.role} />
              </Fact>
              <Fact term="Console member">
                <LinkedMember tenantId={tenantId} user={user} />
              </Fact>
              <Fact term="Emails">
                {user.emails.length === 0 ? (
                  <span className="text-slate-600">None</span>
                ) : (
                  <ul className="space-y-0.5">
                    {user.emails.map((email) => (
                      <li key={`${email.value}-${email.type}`} className="break-all">
                        {email.value}
                        {email.type || email.primary ? (
                          <span className="text-xs text-slate-600">
                            {" "}
                            ({[email.type, email.primary ? "primary" : null].filter(Boolean).join(", ")})
                          </span>
                        ) : null}
                      </li>
                    ))}
                  </ul>
                )}
              </Fact>
              <Fact term="Groups">
                {user.groups.length === 0 ? (
                  <span className="text-slate-600">None</span>
                ) : (
                  <ul className="flex flex-wrap gap-x-3 gap-y-1" data-testid="user-groups">
                    {user.groups.map((group) => (
                      <li key={group.id}>
                        <Link
                          href={consoleUrl.directory(tenantId, directoryId, new URLSearchParams({ tab: "users", group: group.id }))}
                          className={LINK}
                        >
                          {group.name}
                        </Link>
                      </li>
                    ))}
                  </ul>
                )}
              </Fact>
              <Fact term="IdP id (externalId)">
                {user.idp_id ? (
                  <code className="font-mono text-xs break-all">{user.idp_id}</code>
                ) : (
                  <span className="text-slate-600">None</span>
                )}
              </Fact>
              <Fact term="Provisioned">
                <RelativeTime iso={user.created_at} />
                <span className="text-slate-600"> · updated </span>
                <RelativeTime iso={user.updated_at} />
              </Fact>
            </Facts>
          </Card>
          <Attributes id="custom-attributes" title="Custom attributes (enterprise extension)" value={user.custom_attributes} />
          <Attributes id="raw-attributes" title="Raw attributes (as the IdP sent them)" value={user.raw_attributes} />
        </>
      )}
    </DetailsFrame>
  );
}
