/**
 * Platform users for operators (GET/POST /users, PATCH /users/{user_id}): listing everyone (also
 * support), creating operators and support staff with a first password, and changing platform
 * roles, never leaving the platform without an operator.
 */
import { type Tx, sqlIn } from "../db/client.ts";
import { isUuid } from "../db/ids.ts";
import { keysetPage, keysetSql, type PageRequest } from "../db/keyset.ts";
import { containsPattern } from "../db/search.ts";
import { Conflict, Forbidden, NotFound } from "../errors.ts";
import { actorOf, emitEvent } from "../events/emit.ts";
import { isOperator, seesAllTenants } from "../auth/policy.ts";
import { asPlatformRole } from "../auth/principal.ts";
import type { ServiceContext } from "../service-context.ts";
import type { CreatePlatformUserInput, ListUsersInput, PlatformUser, UpdatePlatformUserInput } from "./schemas.ts";
import { createUser } from "./users.ts";

interface UserRow {
  id: string;
  email: string;
  name: string | null;
  platformRole: string | null;
  passwordHash: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export function presentUser(row: UserRow): PlatformUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    platform_role: asPlatformRole(row.platformRole),
    has_password: row.passwordHash !== null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const ROLE_FILTER: Record<NonNullable<ListUsersInput["platform_role"]>, string> = {
  operator: "u.platform_role = 'operator'",
  support: "u.platform_role = 'support'",
  any: "u.platform_role IS NOT NULL",
  none: "u.platform_role IS NULL",
};

const COLUMNS = `u.id, u.email, u.name, u.platform_role AS "platformRole", u.password_hash AS "passwordHash",
  u.created_at AS "createdAt", u.updated_at AS "updatedAt"`;

/** Every user, newest first; operators and support only. `search`: email or name substring, or exact id. */
export async function listUsers(
  { db, actor: { principal } }: ServiceContext,
  page: PageRequest,
  filter: Pick<ListUsersInput, "search" | "platform_role">,
) {
  if (!seesAllTenants(principal)) throw Forbidden("Only platform operators and support staff may list users");
  const params: unknown[] = [];
  const where: string[] = [];
  if (filter.platform_role) where.push(ROLE_FILTER[filter.platform_role]);
  const term = filter.search?.trim();
  if (term && isUuid(term)) {
    params.push(term);
    where.push(`u.id = $${params.length}::uuid`);
  } else if (term) {
    // Emails are stored lower case; names are few enough per platform to lower as they are read.
    params.push(containsPattern(term));
    where.push(`(u.email LIKE $${params.length} OR lower(coalesce(u.name, '')) LIKE $${params.length})`);
  }
  const condition = where.join(" AND ") || "TRUE";
  return keysetPage<UserRow>(page, {
    key: (row) => ({ at: row.createdAt, id: row.id }),
    count: async () =>
      (await db.sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM users u WHERE ${condition}`, params))[0]!.count,
    find: ({ after, order, skip, take }) => {
      const p = [...params];
      const bound = keysetSql(["u.created_at", "u.id"], after, order, p);
      p.push(take, skip);
      return db.sql.query<UserRow>(
        `SELECT ${COLUMNS} FROM users u WHERE ${condition} AND ${bound}
         ORDER BY u.created_at ${order}, u.id ${order} LIMIT $${p.length - 1} OFFSET $${p.length}`,
        p,
      );
    },
  });
}

/** Creates an operator or support user with a first password (platform staff only: tenant users are invited). */
export async function createPlatformUser(ctx: ServiceContext, input: CreatePlatformUserInput): Promise<UserRow> {
  if (!isOperator(ctx.actor.principal)) throw Forbidden("Only platform operators may create platform users");
  return createUser(ctx, { email: input.email, name: input.name, password: input.password, platformRole: input.platform_role });
}

/** Locks the operators' rows, so two concurrent demotions cannot both pass the last-operator check. */
async function lockOperators(tx: Tx): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM users WHERE platform_role = 'operator' FOR UPDATE`;
  return rows.map((r) => r.id);
}

/** Changes a user's platform role; demoting the last operator is a 409. Emits `user.updated`. */
export async function updatePlatformUser({ db, actor }: ServiceContext, input: UpdatePlatformUserInput): Promise<UserRow> {
  if (!isOperator(actor.principal)) throw Forbidden("Only platform operators may change platform roles");
  return db.prisma.$transaction(async (tx) => {
    const operators = await lockOperators(tx);
    const user = isUuid(input.user_id) ? await tx.user.findUnique({ where: { id: input.user_id } }) : null;
    if (!user) throw NotFound("User");
    if (user.platformRole === input.platform_role) return user;
    if (user.platformRole === "operator" && operators.length === 1 && operators[0] === user.id) {
      throw Conflict("Cannot remove the platform's last operator: make another user operator first");
    }
    const updated = await tx.user.update({ where: { id: user.id }, data: { platformRole: input.platform_role } });
    await emitEvent(sqlIn(tx), actorOf(actor.principal, actor.request), {
      type: "user.updated",
      tenantId: null,
      target: { type: "user", id: user.id, name: user.email },
      details: { email: user.email, changes: { platform_role: { from: user.platformRole, to: input.platform_role } } },
    });
    return updated;
  });
}
