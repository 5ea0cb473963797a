/** The application router: every domain's router, served to the console and as REST. */
import { router } from "../trpc/init.ts";
import { tenantsRouter } from "../tenants/router.ts";
import { membersRouter } from "../members/router.ts";
import { tokensRouter } from "../tokens/router.ts";
import { accountRouter } from "../account/router.ts";
import { usersRouter } from "../account/users-router.ts";
import { ssoCertificatesRouter, ssoRouterImplied, ssoRouterInTenant } from "../sso/router.ts";
import { webhooksRouter } from "../webhooks/router.ts";
import { logStreamsRouter } from "../log-streams/router.ts";
import { ssoSignInRouter } from "../sso/signin/router.ts";
import { ssoApplicationsRouter } from "../sso/broker/router.ts";
import { auditRouter } from "../audit/router.ts";
import { eventFeedRouter } from "../audit/feed-router.ts";
import { invitationsRouter } from "../invitations/router.ts";
import { myInvitationsRouter } from "../invitations/me-router.ts";
import { domainsRouter } from "../domains/router.ts";
import { setupLinksRouter } from "../setup-links/router.ts";
import { directoriesRouter } from "../directories/router.ts";
import { setupRouter } from "../setup-links/guided-router.ts";

export const appRouter = router({
  tenants: tenantsRouter,
  members: membersRouter,
  tokens: tokensRouter,
  account: accountRouter,
  users: usersRouter,
  // Before `sso`: REST matches paths in this order, and /sso/{provider_id} would take /sso/applications.
  ssoApplications: ssoApplicationsRouter,
  sso: ssoRouterImplied,
  tenantSso: ssoRouterInTenant,
  ssoCertificates: ssoCertificatesRouter,
  ssoSignIn: ssoSignInRouter,
  webhooks: webhooksRouter,
  logStreams: logStreamsRouter,
  audit: auditRouter,
  events: eventFeedRouter,
  invitations: invitationsRouter,
  myInvitations: myInvitationsRouter,
  domains: domainsRouter,
  setupLinks: setupLinksRouter,
  directories: directoriesRouter,
  // The guided setup of a setup link (console only, /api/setup/trpc).
  setup: setupRouter,
});

export type AppRouter = typeof appRouter;
