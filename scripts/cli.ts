/**
 * `npm run cli -- <command>`: scripted setup against DATABASE_URL (or the embedded database;
 * stop the server first, PGlite allows one process at a time). Acts as the platform itself.
 *
 *   user create   --email E [--password P] [--name N] [--platform-role operator|support]
 *   tenant create --name N
 *   member add    --tenant ID --email E --role admin|viewer [--password P] [--name N]
 *   token create  --email E --name N [--tenant ID] [--read-only] [--expires-at ISO-8601]
 *   audit digest  --tenant ID          sign a digest of the tenant's audit log now
 *   audit jwks                         the digests' public keys (as /api/v1/audit/jwks.json)
 *
 * Prints JSON; `token create` prints the token value once.
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { database } from "../server/db/client.ts";
import { migrate } from "../server/db/migrate.ts";
import { wireEventSubscribers } from "../server/app/features.ts";
import { env, EnvError } from "../server/env.ts";
import { AppError } from "../server/errors.ts";
import { SYSTEM_PRINCIPAL, SYSTEM_REQUEST } from "../server/auth/principal.ts";
import type { ServiceContext } from "../server/service-context.ts";
import { createUser, normalizeEmail } from "../server/account/users.ts";
import { createTenant, presentTenant } from "../server/tenants/service.ts";
import { CreateTenantInput } from "../server/tenants/schemas.ts";
import { addMember, presentMember } from "../server/members/service.ts";
import { AddMemberInput } from "../server/members/schemas.ts";
import { createToken, presentToken } from "../server/tokens/service.ts";
import { CreateTokenInput } from "../server/tokens/schemas.ts";
import { createDigest, publicKeys } from "../server/audit/digests.ts";

const USAGE = `usage: npm run cli -- <command> [options]
  user create   --email E [--password P] [--name N] [--platform-role operator|support]
  tenant create --name N
  member add    --tenant ID --email E --role admin|viewer [--password P] [--name N]
  token create  --email E --name N [--tenant ID] [--read-only] [--expires-at ISO-8601]
  audit digest  --tenant ID
  audit jwks`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    email: { type: "string" },
    password: { type: "string" },
    name: { type: "string" },
    "platform-role": { type: "string" },
    tenant: { type: "string" },
    role: { type: "string" },
    "read-only": { type: "boolean" },
    "expires-at": { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});

function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new AppError("invalid_request", `${issue.path.join(".") || "input"}: ${issue.message}`);
  }
  return result.data;
}

async function run(): Promise<unknown> {
  const command = positionals.join(" ");
  if (values.help || !command) {
    console.log(USAGE);
    return undefined;
  }
  env();
  wireEventSubscribers();
  const db = await database();
  await migrate(db.sql);
  const ctx: ServiceContext = { db, actor: { principal: SYSTEM_PRINCIPAL, request: SYSTEM_REQUEST } };
  try {
    switch (command) {
      case "user create": {
        const role = parse(z.enum(["operator", "support"]).optional(), values["platform-role"]);
        const user = await createUser(ctx, {
          email: parse(z.email(), values.email),
          password: values.password,
          name: values.name,
          platformRole: role ?? null,
        });
        return { id: user.id, email: user.email, platform_role: user.platformRole };
      }
      case "tenant create":
        return presentTenant(await createTenant(ctx, parse(CreateTenantInput, { name: values.name })));
      case "member add": {
        const input = parse(AddMemberInput, {
          tenant_id: values.tenant,
          email: values.email,
          role: values.role,
          name: values.name,
          password: values.password,
        });
        const added = await addMember({ ...ctx, tenantId: input.tenant_id }, input);
        return added.member ? presentMember(added.member) : added.invitation;
      }
      case "token create": {
        const owner = await db.prisma.user.findUnique({ where: { email: normalizeEmail(values.email ?? "") } });
        if (!owner) throw new AppError("invalid_request", "--email: no user with this email");
        const input = parse(CreateTokenInput, {
          name: values.name,
          tenant_id: values.tenant,
          read_only: values["read-only"] ?? false,
          expires_at: values["expires-at"],
          user_id: owner.id,
        });
        const { token, value } = await createToken(ctx, input);
        return { ...presentToken(token), token: value };
      }
      case "audit digest": {
        const [tenant] = await db.sql.query<{ id: string }>(`SELECT id FROM tenants WHERE id::text = $1`, [values.tenant ?? ""]);
        if (!tenant) throw new AppError("invalid_request", "--tenant: no tenant with this id");
        const ctx = { db, actor: { principal: SYSTEM_PRINCIPAL, request: SYSTEM_REQUEST }, tenantId: tenant.id };
        return await createDigest(ctx);
      }
      case "audit jwks":
        return await publicKeys(db);
      default:
        throw new AppError("invalid_request", `unknown command "${command}"\n${USAGE}`);
    }
  } finally {
    await db.close();
  }
}

try {
  const output = await run();
  if (output !== undefined) console.log(JSON.stringify(output, null, 2));
} catch (error) {
  console.error(error instanceof AppError || error instanceof EnvError ? error.message : `error: ${(error as Error).message}`);
  process.exit(1);
}
