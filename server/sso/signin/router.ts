/** Test sign-in (admins): start one for a provider, and read its result. */
import { router } from "../../trpc/init.ts";
import { tenantProcedure } from "../../trpc/procedures.ts";
import { serviceContext } from "../../trpc/context.ts";
import { appUrl } from "../../env.ts";
import { beginTestSignIn } from "./begin.ts";
import { readTestResult } from "./test-results.ts";
import { TestSignInInput, TestSignInResult, TestSignInResultInput, TestSignInStarted } from "./schemas.ts";

const tags = ["SSO"];
const path = "/tenants/{tenant_id}/sso/{provider_id}/test-signin";

export const ssoSignInRouter = router({
  startTest: tenantProcedure("admin")
    .meta({
      openapi: {
        method: "POST",
        path,
        tags,
        summary: "Start a Test sign-in",
        description:
          "Runs the provider's sign-in (enabled or not) for you: open `url` in a browser signed in to the console as you. " +
          "The result page shows the profile received or the exact reason it failed; it creates no user and no session. Failures write `sso.login_failed`.",
        protect: true,
      },
    })
    .input(TestSignInInput)
    .output(TestSignInStarted)
    .mutation(async ({ ctx, input }) => {
      const started = await beginTestSignIn(serviceContext(ctx), input.provider_id);
      const absolute = (p: string) => new URL(p, `${appUrl()}/`).toString();
      return { url: absolute(started.url), result_url: absolute(started.result_url), request_id: started.request_id };
    }),

  testResult: tenantProcedure("admin")
    .meta({ openapi: { method: "GET", path: `${path}/{request_id}`, tags, summary: "Read a Test sign-in's result", protect: true } })
    .input(TestSignInResultInput)
    .output(TestSignInResult)
    .query(({ ctx, input }) => readTestResult(serviceContext(ctx), input)),
});
