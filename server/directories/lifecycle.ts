/**
 * What a directory's people mean for the tenant: console memberships from role mappings, and
 * deprovisioning. Called in the transaction of every change that can alter them (a user written
 * or deactivated, a group's members or name changed, the mappings edited, the directory deleted).
 *
 * A person is their email: a directory user is linked to the console user whose email is its
 * primary email, and a person in several directories of the tenant is active while any of their
 * directory users is, with the broadest role those give. The directory governs the membership of
 * everyone it links, including people who were members before it existed: the IdP is where a
 * company says who may do what, and a pre-existing admin it demotes is demoted (else removing
 * someone from the admins' group in Okta would not take admin away here). One exception keeps the
 * tenant usable: a role mapping never demotes or removes the tenant's last admin (deprovisioning
 * does: a person who left leaves at once).
 */
import type { Directory as DirectoryRow } from "../db/generated/client.ts";
import { sqlIn, type Tx } from "../db/client.ts";
import type { EventActor } from "../events/emit.ts";
import type { TenantRole } from "../auth/principal.ts";
import { isUuid } from "../db/ids.ts";
import { clock } from "../clock.ts";
import { log } from "../log.ts";
import { lockAdmins } from "../members/service.ts";
import {
  changeMemberRolesIn,
  createMembershipsIn,
  removeMembershipsIn,
  type MemberRef,
  type NewMembership,
} from "../members/memberships.ts";
import { asDirectoryRole, broaderRole, mappedRole, roleMappingsOf } from "./lifecycle-roles.ts";
import { deprovision, type Leaver } from "./lifecycle-deprovision.ts";

/** One directory user of this call, as reconciling decides it. */
interface Decided {
  id: string;
  email: string | null;
  name: string | null;
  active: boolean;
  role: TenantRole | null;
  /** The email of the console user it was linked to, when that is not its email any more. */
  formerEmail: string | null;
}

/** What the tenant's directories together say about one person (an email). */
interface Person {
  email: string;
  active: boolean;
  role: TenantRole | null;
}

/**
 * Recomputes each given directory user's role and console membership, and deprovisions those
 * inactive (or in `deleting`, about to be removed): membership ended, tokens revoked, sessions
 * and broker tokens ended. Unknown ids are ignored.
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
): Promise<void> {
  const announce = options.announce ?? (async () => undefined);
  const ids = [...new Set(userIds)].filter(isUuid);
  const decided = ids.length ? await decide(tx, directory, ids, options.deleting ?? false) : [];
  if (decided.length === 0) return announce();
  const people = await peopleOf(tx, directory.tenantId, decided, options.deleting ? ids : []);
  const users = await consoleUsersOf(tx, decided, people);
  await storeDecisions(tx, decided, users);
  await announce();
  await applyToMemberships(tx, directory, people, users, actor);
}

/** Each user's state and role, from the directory's mappings and the user's groups. */
async function decide(tx: Tx, directory: DirectoryRow, ids: string[], deleting: boolean): Promise<Decided[]> {
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
  return rows.map((row) => {
    const active = row.active && !deleting;
    const email = row.primaryEmail?.toLowerCase() ?? null;
    const linkedTo = row.user?.email.toLowerCase() ?? null;
    return {
      id: row.id,
      email,
      formerEmail: linkedTo !== email ? linkedTo : null,
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
 * Every person these users are, with what all the tenant's directory users of their email say:
 * this call's users as just decided, the others (other directories) as stored. A console user a
 * directory user was linked to before its email changed is a person too: when no directory user
 * has their email any more, the directories give them no role (else the account a leaver used
 * before a rename would outlive their deprovisioning).
 */
async function peopleOf(tx: Tx, tenantId: string, decided: Decided[], deleting: string[]): Promise<Map<string, Person>> {
  const former = decided.flatMap((d) => (d.formerEmail ? [d.formerEmail] : []));
  const emails = [...new Set([...decided.flatMap((d) => (d.email ? [d.email] : [])), ...former])];
  const people = new Map<string, Person>();
  if (emails.length === 0) return people;
  const mine = new Map(decided.map((d) => [d.id, d]));
  const others = await sqlIn(tx).query<{ id: string; email: string; active: boolean; role: string | null }>(
    `SELECT id::text AS id, primary_email AS email, active, role FROM directory_users
      WHERE tenant_id = $1::uuid AND primary_email = ANY($2::text[]) AND NOT (id = ANY($3::uuid[]))`,
    [tenantId, emails, [...mine.keys(), ...deleting]],
  );
  const rows = [...decided.flatMap((d) => (d.email ? [{ email: d.email, active: d.active, role: d.role }] : [])), ...others];
  for (const row of rows) {
    const person = people.get(row.email) ?? { email: row.email, active: false, role: null };
    if (row.active) {
      person.active = true;
      person.role = broaderRole(person.role, asDirectoryRole(row.role));
    }
    people.set(row.email, person);
  }
  for (const email of former) if (!people.has(email)) people.set(email, { email, active: true, role: null });
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

interface ConsoleUser {
  id: string;
  email: string;
  created?: boolean;
}

/** Stores each user's link, role and `deprovisioned_at` (set when they go, cleared when they return). */
async function storeDecisions(tx: Tx, decided: Decided[], users: Map<string, ConsoleUser>): Promise<void> {
  await sqlIn(tx).query(
    `UPDATE directory_users d
        SET user_id = v.user_id, role = v.role,
            deprovisioned_at = CASE WHEN v.active THEN NULL ELSE COALESCE(d.deprovisioned_at, $5) END
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::boolean[]) AS v(id, user_id, role, active)
      WHERE d.id = v.id
        AND (d.user_id IS DISTINCT FROM v.user_id OR d.role IS DISTINCT FROM v.role OR (d.deprovisioned_at IS NULL) <> v.active)`,
    [
      decided.map((d) => d.id),
      decided.map((d) => (d.email ? (users.get(d.email)?.id ?? null) : null)),
      decided.map((d) => d.role),
      decided.map((d) => d.active),
      clock.now(),
    ],
  );
}

/** Makes each person's membership what the directories say, and deprovisions those who left. */
async function applyToMemberships(
  tx: Tx,
  directory: DirectoryRow,
  people: Map<string, Person>,
  users: Map<string, ConsoleUser>,
  actor: EventActor,
): Promise<void> {
  const { tenantId } = directory;
  const linked = [...users.values()];
  if (people.size === 0) return;
  const admins = linked.length > 0 ? await lockAdmins(tx, tenantId) : [];
  const memberships = await tx.membership.findMany({
    where: { tenantId, userId: { in: linked.map((u) => u.id) } },
    select: { userId: true, role: true, user: { select: { email: true } } },
  });
  const memberOf = new Map(memberships.map((m) => [m.userId, m]));
  const details = { method: "directory", directory_id: directory.id };
  const leavers: Leaver[] = [...people.values()]
    .filter((p) => !p.active)
    .map(({ email }) => {
      const user = users.get(email) ?? null;
      return { email, user, member: user ? (memberOf.get(user.id) ?? null) : null };
    });
  // The last-admin rule, counted as this call's changes go (leavers go first, whatever their role).
  let adminsLeft = admins.length - leavers.filter((l) => l.member?.role === "admin").length;
  const joining: NewMembership[] = [];
  const changing: { member: MemberRef; role: TenantRole; details: typeof details }[] = [];
  const dropping: { member: MemberRef; details: Record<string, unknown> }[] = [];
  for (const person of people.values()) {
    const user = users.get(person.email);
    if (!person.active || !user) continue;
    const member = memberOf.get(user.id) ?? null;
    if (person.role && !member) {
      joining.push({ user, role: person.role, details: { ...details, new_user: user.created ?? false } });
      if (person.role === "admin") adminsLeft++;
    } else if (member && member.role !== person.role) {
      if (member.role === "admin" && adminsLeft <= 1) {
        log.warn("directory left the tenant's last admin in place", { tenant_id: tenantId, directory_id: directory.id });
        continue;
      }
      if (person.role) changing.push({ member, role: person.role, details });
      else dropping.push({ member, details: { ...details, reason: "no_role" } });
      if (member.role === "admin") adminsLeft--;
      if (person.role === "admin") adminsLeft++;
    }
  }
  await createMembershipsIn(tx, actor, tenantId, joining);
  await changeMemberRolesIn(tx, actor, tenantId, changing);
  await removeMembershipsIn(tx, actor, tenantId, dropping);
  await deprovision(tx, tenantId, leavers, actor, directory.id);
}
