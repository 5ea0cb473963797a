/**
 * What a directory's people mean for the tenant: console accounts and memberships from role
 * mappings, and deprovisioning. Called in the transaction of every change that can alter them (a
 * user written or deactivated, a group's members or name changed, the mappings edited, the
 * directory deleted, a domain verified).
 *
 * Who a directory may act on (issue 38). A tenant owns the people in its verified domains: a
 * directory user is linked to the console account of its primary email only when that email is in
 * one of them; any other stays a directory user, unlinked (`outside_verified_domains`), and never
 * touches an account. Of the linked, a person in several directories of the tenant is active while
 * any of their directory users is, with the broadest role those give.
 *
 * What a directory governs: the memberships it created, and those it captured (a directory with
 * `governs_existing_members` takes over the membership of each member it links). It sets their role
 * and ends them when the person leaves. A member who joined another way (invited, added by an
 * operator, joined through SSO) keeps their membership and role; when the IdP deactivates them, they
 * lose only what came through the tenant's IdP (SSO sessions, tokens minted in them, the broker's
 * grants). No path leaves the tenant without an admin (server/members/admins.ts): a change that
 * would is refused, and `directory_user.deprovision_refused` says so.
 */
import type { Directory as DirectoryRow } from "../db/generated/client.ts";
import { sqlIn, type Tx } from "../db/client.ts";
import type { EventActor } from "../events/emit.ts";
import type { TenantRole } from "../auth/principal.ts";
import { isUuid } from "../db/ids.ts";
import { asDirectoryRole, broaderRole, mappedRole, roleMappingsOf } from "./lifecycle-roles.ts";
import { applyToMemberships, type ConsoleUser, type Person, type Refusal } from "./lifecycle-apply.ts";
import { clock } from "../clock.ts";
import { domainOf, verifiedDomainsOf } from "../domains/index.ts";

export type { Refusal } from "./lifecycle-apply.ts";

/** One directory user of this call, as reconciling decides it. */
interface Decided {
  id: string;
  email: string | null;
  name: string | null;
  active: boolean;
  role: TenantRole | null;
  /** Whether the email is in one of the tenant's verified domains: only then is it linked. */
  owned: boolean;
  /** The email of the console user it was linked to, when that is not its email any more. */
  formerEmail: string | null;
}

/**
 * Recomputes each given directory user's link, role and console membership, and deprovisions those
 * inactive (or in `deleting`, about to be removed). Unknown ids are ignored. Answers the changes
 * refused because they would have left the tenant without an admin.
 *
 * `announce` emits the caller's own events (the user written, the group made), after the reading
 * and before the memberships' events: the tenant's audit chain head is locked from a
 * transaction's first event to its COMMIT, so what can be read before waits outside that lock (an
 * IdP's initial sync writes many users of one tenant at once).
 */
export async function reconcileDirectoryUsers(
  tx: Tx,
  directory: DirectoryRow,
  userIds: readonly string[],
  actor: EventActor,
  options: { deleting?: boolean; announce?: () => Promise<void> } = {},
): Promise<Refusal[]> {
  const announce = options.announce ?? (async () => undefined);
  const ids = [...new Set(userIds)].filter(isUuid);
  const domains = ids.length ? await verifiedDomainsOf(sqlIn(tx), directory.tenantId) : new Set<string>();
  const decided = ids.length ? await decide(tx, directory, ids, domains, options.deleting ?? false) : [];
  if (decided.length === 0) {
    await announce();
    return [];
  }
  const people = await peopleOf(tx, directory, decided, options.deleting ? ids : []);
  const users = await consoleUsersOf(tx, decided, people);
  await storeDecisions(tx, decided, users);
  await announce();
  return applyToMemberships(tx, directory, people, users, actor, decided);
}

/** Each user's state, role (from the directory's mappings and the user's groups) and ownership. */
async function decide(tx: Tx, directory: DirectoryRow, ids: string[], domains: Set<string>, deleting: boolean): Promise<Decided[]> {
  const rows = await tx.directoryUser.findMany({
    where: { id: { in: ids }, directoryId: directory.id },
    select: {
      id: true,
      active: true,
      primaryEmail: true,
      givenName: true,
      familyName: true,
      user: { select: { email: true } },
      groups: { select: { group: { select: { displayName: true, externalId: true } } } },
    },
  });
  const mappings = roleMappingsOf(directory.roleMappings);
  const defaultRole = asDirectoryRole(directory.defaultRole);
  const owned = (email: string | null) => email !== null && domains.has(domainOf(email) ?? "");
  return rows.map((row) => {
    const active = row.active && !deleting;
    const email = row.primaryEmail?.toLowerCase() ?? null;
    const linkedTo = row.user?.email.toLowerCase() ?? null;
    return {
      id: row.id,
      email,
      owned: owned(email),
      // The account it was linked to answers to the directory only while it is the tenant's too.
      formerEmail: linkedTo !== email && owned(linkedTo) ? linkedTo : null,
      name: [row.givenName, row.familyName].filter(Boolean).join(" ") || null,
      active,
      // An inactive user has no console role, whatever their groups.
      role: active
        ? mappedRole(
            mappings,
            defaultRole,
            row.groups.map((g) => g.group),
          )
        : null,
    };
  });
}

/**
 * Every person these users are (owned emails only), with what all the tenant's directory users of
 * their email say: this call's users as just decided, the others (other directories) as stored. A
 * console user a directory user was linked to before its email changed is a person too: when no
 * directory user has their email any more, the directories give them no role (else the account a
 * leaver used before a rename would outlive their deprovisioning).
 */
async function peopleOf(tx: Tx, directory: DirectoryRow, decided: Decided[], deleting: string[]): Promise<Map<string, Person>> {
  const former = decided.flatMap((d) => (d.formerEmail ? [d.formerEmail] : []));
  const mine = decided.filter((d) => d.owned && d.email);
  const emails = [...new Set([...mine.map((d) => d.email!), ...former])];
  const people = new Map<string, Person>();
  if (emails.length === 0) return people;
  const others = await sqlIn(tx).query<{ directory_id: string; email: string; active: boolean; role: string | null; governs: boolean }>(
    `SELECT d.directory_id::text AS directory_id, d.primary_email AS email, d.active, d.role, r.governs_existing_members AS governs
       FROM directory_users d JOIN directories r ON r.id = d.directory_id
      WHERE d.tenant_id = $1::uuid AND d.primary_email = ANY($2::text[]) AND NOT (d.id = ANY($3::uuid[]))`,
    [directory.tenantId, emails, [...decided.map((d) => d.id), ...deleting]],
  );
  const rows = [
    ...mine.map((d) => ({
      directory_id: directory.id,
      email: d.email!,
      active: d.active,
      role: d.role,
      governs: directory.governsExistingMembers,
    })),
    ...others,
  ];
  for (const row of rows) {
    const person = people.get(row.email) ?? { email: row.email, active: false, role: null, directories: [], governsExisting: false };
    person.governsExisting ||= row.governs;
    if (row.active) {
      person.active = true;
      person.role = broaderRole(person.role, asDirectoryRole(row.role));
      if (!person.directories.includes(row.directory_id)) person.directories.push(row.directory_id);
    }
    people.set(row.email, person);
  }
  for (const email of former) {
    if (!people.has(email)) people.set(email, { email, active: true, role: null, directories: [], governsExisting: false });
  }
  return people;
}

/**
 * The console users of these people, by email; a person the directory gives a role who has no
 * account gets one, without a password (they sign in through the tenant's SSO).
 */
async function consoleUsersOf(tx: Tx, decided: Decided[], people: Map<string, Person>): Promise<Map<string, ConsoleUser>> {
  const sql = sqlIn(tx);
  const emails = [...people.keys()];
  if (emails.length === 0) return new Map();
  const found = await sql.query<ConsoleUser>(`SELECT id::text AS id, email FROM users WHERE email = ANY($1::text[])`, [emails]);
  const users = new Map(found.map((u) => [u.email, { ...u, created: false }]));
  const wanted = decided.filter((d) => d.email && !users.has(d.email) && people.get(d.email)?.active && people.get(d.email)?.role);
  const newcomers = [...new Map(wanted.map((d) => [d.email!, d.name])).entries()];
  if (newcomers.length > 0) {
    // Two requests provisioning one person at once: one creates, the other finds it.
    await sql.query(`INSERT INTO users (email, name) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (email) DO NOTHING`, [
      newcomers.map(([email]) => email),
      newcomers.map(([, name]) => name),
    ]);
    const made = await sql.query<ConsoleUser>(`SELECT id::text AS id, email FROM users WHERE email = ANY($1::text[])`, [
      newcomers.map(([email]) => email),
    ]);
    for (const user of made) users.set(user.email, { ...user, created: true });
  }
  return users;
}

/** Why a directory user has no account linked, or null when it has one. */
function unlinkedReason(decided: Decided, user: ConsoleUser | undefined): string | null {
  if (!decided.email) return "no_email";
  if (!decided.owned) return "outside_verified_domains";
  return user ? null : "no_account";
}

/** Stores each user's link (or why it has none), role and `deprovisioned_at` (set when they go, cleared when they return). */
async function storeDecisions(tx: Tx, decided: Decided[], users: Map<string, ConsoleUser>): Promise<void> {
  const userOf = (d: Decided) => (d.email && d.owned ? users.get(d.email) : undefined);
  await sqlIn(tx).query(
    `UPDATE directory_users d
        SET user_id = v.user_id, role = v.role, unlinked_reason = v.unlinked_reason,
            deprovisioned_at = CASE WHEN v.active THEN NULL ELSE COALESCE(d.deprovisioned_at, $6) END
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::boolean[], $5::text[]) AS v(id, user_id, role, active, unlinked_reason)
      WHERE d.id = v.id
        AND (d.user_id IS DISTINCT FROM v.user_id OR d.role IS DISTINCT FROM v.role
             OR d.unlinked_reason IS DISTINCT FROM v.unlinked_reason OR (d.deprovisioned_at IS NULL) <> v.active)`,
    [
      decided.map((d) => d.id),
      decided.map((d) => userOf(d)?.id ?? null),
      // A directory gives no role to someone outside the tenant's verified domains.
      decided.map((d) => (d.owned ? d.role : null)),
      decided.map((d) => d.active),
      decided.map((d) => unlinkedReason(d, userOf(d))),
      clock.now(),
    ],
  );
}
