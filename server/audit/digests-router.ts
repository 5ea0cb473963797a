/**
 * Signed audit digests over REST (server/audit/digests.ts), spread into the audit router ahead of
 * `/audit/{event_id}` (the REST adapter takes the first path that matches), and the public keys.
 */
import { z } from "zod";
import { publicProcedure, tenantProcedure } from "../trpc/procedures.ts";
import { created, serviceContext } from "../trpc/context.ts";
import { envelope, pageRequest } from "../contract/pagination.ts";
import { TenantAuditInput } from "./schemas.ts";
import { AuditDigest, AuditDigestPage, AuditJwks, DigestInput, ListDigestsInput } from "./digest-schemas.ts";
import { createDigest, getDigest, listDigests, presentDigest, publicKeys } from "./digests.ts";

const tags = ["Audit"];
const base = "/tenants/{tenant_id}/audit/digests";

export const digestProcedures = {
  listDigests: tenantProcedure("viewer")
    .meta({
      openapi: {
        method: "GET",
        path: base,
        tags,
        summary: "List signed audit digests",
        description: 'Newest first. Verify each `jws` with /audit/jwks.json; see docs/audit-log.md, "Proving an export".',
        protect: true,
      },
    })
    .input(ListDigestsInput)
    .output(AuditDigestPage)
    .query(async ({ ctx, input }) =>
      envelope(ctx.url, input, await listDigests(serviceContext(ctx), { page: pageRequest(input) }), presentDigest),
    ),

  createDigest: tenantProcedure("admin")
    .meta({
      successStatus: 201,
      openapi: {
        method: "POST",
        path: base,
        tags,
        summary: "Sign a digest of the audit log now",
        description:
          "201 with a new digest covering the events since the previous one. When nothing was appended since the newest digest, 200 with that digest (it already covers the head). 409 when the log has no events.",
        protect: true,
      },
    })
    .input(TenantAuditInput)
    .output(AuditDigest)
    .mutation(async ({ ctx }) => {
      const { digest, created: isNew } = await createDigest(serviceContext(ctx));
      return isNew ? created(ctx, `/api/v1/tenants/${ctx.tenant.id}/audit/digests/${digest.id}`, digest) : digest;
    }),

  getDigest: tenantProcedure("viewer")
    .meta({ openapi: { method: "GET", path: `${base}/{digest_id}`, tags, summary: "Get a signed audit digest", protect: true } })
    .input(DigestInput)
    .output(AuditDigest)
    .query(({ ctx, input }) => getDigest(serviceContext(ctx), input)),

  jwks: publicProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/audit/jwks.json",
        tags,
        summary: "Public keys of audit digests (JWKS)",
        description: "No authentication. Each digest's JWS header `kid` names its key here; keys stay published after rotation.",
      },
    })
    .input(z.object({}))
    .output(AuditJwks)
    .query(({ ctx }) => publicKeys(ctx.db)),
};
