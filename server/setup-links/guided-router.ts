/**
 * The guided setup's procedures (console only, at /api/setup/trpc): what a setup link's holder may
 * do, by intent. Each calls the same service as the admin's console, as the link (actor
 * `setup_link:<id>`), so the rules (verified domains, metadata limits, conflicts) are the same.
 */
import { router } from "../trpc/init.ts";
import { setupProcedure } from "../trpc/procedures.ts";
import { serviceContext, type Context } from "../trpc/context.ts";
import type { Principal, SetupLinkGrant } from "../auth/principal.ts";
import { createDomain, listDomains, presentDomain, verifyDomain } from "../domains/index.ts";
import {
  AddDomainInput,
  ChooseIdpInput,
  CreateSetupDirectoryInput,
  EnableSsoInput,
  SaveIdpInput,
  VerifyDomainStepInput,
} from "./schemas.ts";
import { createSetupDirectory, directoryState, rotateSetupDirectoryToken } from "./flow-directory.ts";
import { chooseIdp, enableSetupProvider, lastSetupTest, refreshIdp, saveIdp, ssoState, startSetupTest } from "./flow-sso.ts";

type SetupCtx = Context & { principal: Principal; tenant: { id: string } };
const grant = (ctx: SetupCtx): SetupLinkGrant => ctx.principal.setupLink!;
const service = (ctx: SetupCtx) => serviceContext(ctx);

export const setupRouter = router({
  /** Who made the link, for which tenant, until when; and the state of its intent's steps. */
  state: setupProcedure("any").query(async ({ ctx }) => {
    const link = grant(ctx);
    const tenant = await ctx.db.prisma.tenant.findUniqueOrThrow({ where: { id: link.tenantId }, select: { id: true, name: true } });
    const row = await ctx.db.prisma.setupLink.findUniqueOrThrow({ where: { id: link.id }, select: { expiresAt: true } });
    return {
      intent: link.intent,
      tenant,
      created_by_email: link.createdBy.email,
      link_expires_at: row.expiresAt.toISOString(),
      session_expires_at: link.sessionExpiresAt.toISOString(),
      sso: link.intent === "sso" ? await ssoState(service(ctx), link) : null,
      directory: link.intent === "directory_sync" ? await directoryState(service(ctx), link) : null,
    };
  }),

  sso: router({
    chooseIdp: setupProcedure("sso")
      .input(ChooseIdpInput)
      .mutation(({ ctx, input }) => chooseIdp(service(ctx), grant(ctx), input.idp)),
    save: setupProcedure("sso")
      .input(SaveIdpInput)
      .mutation(({ ctx, input }) => saveIdp(service(ctx), grant(ctx), input)),
    refresh: setupProcedure("sso").mutation(({ ctx }) => refreshIdp(service(ctx), grant(ctx))),
    startTest: setupProcedure("sso").mutation(({ ctx }) => startSetupTest({ ...service(ctx), response: ctx.response }, grant(ctx))),
    lastTest: setupProcedure("sso").query(({ ctx }) => lastSetupTest(service(ctx), grant(ctx))),
    enable: setupProcedure("sso")
      .input(EnableSsoInput)
      .mutation(({ ctx, input }) => enableSetupProvider(service(ctx), grant(ctx), input.domains)),
  }),

  directory: router({
    /** Polled by the live status ("waiting for the first request" / "N users received"). */
    state: setupProcedure("directory_sync").query(({ ctx }) => directoryState(service(ctx), grant(ctx))),
    create: setupProcedure("directory_sync")
      .input(CreateSetupDirectoryInput)
      .mutation(({ ctx, input }) => createSetupDirectory(service(ctx), grant(ctx), input.provider)),
    rotateToken: setupProcedure("directory_sync").mutation(({ ctx }) => rotateSetupDirectoryToken(service(ctx), grant(ctx))),
  }),

  domains: router({
    list: setupProcedure("domain_verification").query(async ({ ctx }) => {
      const page = await listDomains(service(ctx), { page: 1, pageSize: 100 });
      return page.items.map(presentDomain);
    }),
    add: setupProcedure("domain_verification")
      .input(AddDomainInput)
      .mutation(async ({ ctx, input }) =>
        presentDomain(await createDomain(service(ctx), { tenant_id: ctx.tenant.id, domain: input.domain })),
      ),
    verify: setupProcedure("domain_verification")
      .input(VerifyDomainStepInput)
      .mutation(async ({ ctx, input }) =>
        presentDomain(await verifyDomain(service(ctx), { tenant_id: ctx.tenant.id, domain_id: input.domain_id })),
      ),
  }),
});
