/** The caller's own account over REST (/me, /auth/step-up) and, for the console, changing its password. */
import { z } from "zod";
import { router } from "../trpc/init.ts";
import { authedProcedure, publicProcedure, writeProcedure } from "../trpc/procedures.ts";
import { serviceContext } from "../trpc/context.ts";
import {
  ChangePasswordInput,
  EndSessionInput,
  Me,
  PASSWORD_RESET_TTL_MINUTES,
  PasswordResetAccepted,
  PasswordResetConfirmInput,
  PasswordResetDone,
  PasswordResetRequestInput,
  SessionList,
  SsoStepUpInput,
  SsoStepUpStarted,
  StepUpInput,
  StepUpMethods,
  StepUpResult,
} from "./schemas.ts";
import { beginSsoStepUp, stepUpMethods } from "../sso/index.ts";
import { completePasswordReset, requestPasswordReset } from "./password-reset.ts";
import { changePassword, describeMe } from "./service.ts";
import { endSession, listSessions, signOutEverywhere } from "./sessions.ts";
import { sessionCookie } from "../auth/session-token.ts";
import { stepUp } from "../auth/step-up.ts";
import { mfaRouter } from "./mfa-router.ts";

const tags = ["Identity"];
/**
 * REST operation ids are public (generated clients name their methods after them). They were
 * derived from this router's first mount point, `auth`; pinned, so its mount point is free to say
 * what it is (`account`) without changing the contract.
 */
const operationId = (procedure: string) => `auth-${procedure}`;

export const accountRouter = router({
  me: authedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/me",
        operationId: operationId("me"),
        tags,
        summary: "The caller: user, roles, memberships, token scopes",
        protect: true,
      },
    })
    .input(z.object({}))
    .output(Me)
    .query(({ ctx }) => describeMe(serviceContext(ctx))),

  stepUp: authedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/auth/step-up",
        operationId: operationId("stepUp"),
        tags,
        summary: "Step up: re-enter your password (and a second factor)",
        description:
          "Marks this token fresh for 10 minutes, for actions that need step-up (disabling or deleting an SSO provider, rotating a webhook secret). " +
          "Send `{password}`; when the account has an authenticator app, `{password, totp_code}` (the password alone: 401 `mfa_required`, nothing marked); " +
          "or `{recovery_code}` on its own (single-use: emits `user.recovery_code_used`). A TOTP code is accepted once: a replayed one is refused. " +
          "Wrong password or code: 401 `unauthenticated`, `errors` naming the field (a wrong code emits `user.mfa_challenge_failed`). " +
          "Five wrong passwords or codes within 15 minutes lock step-up for 15 minutes (429 with Retry-After). Emits `user.step_up`. " +
          "Users without a password (signed up through SSO) cannot step up a token: they do step-up actions in the console, which confirms at their identity provider.",
        protect: true,
      },
    })
    .input(StepUpInput)
    .output(StepUpResult)
    .mutation(async ({ ctx, input }) => ({
      step_up_expires_at: (await stepUp(serviceContext(ctx), input)).toISOString(),
    })),

  /** Console only: how this session may step up (its password, its SSO provider). */
  stepUpMethods: authedProcedure
    .input(z.object({}))
    .output(StepUpMethods)
    .query(({ ctx }) => stepUpMethods(serviceContext(ctx))),

  /** Console only: step up by signing in again at the session's SSO provider (open `url` in a popup). */
  startSsoStepUp: authedProcedure
    .input(SsoStepUpInput)
    .output(SsoStepUpStarted)
    .mutation(async ({ ctx, input }) => ({ url: await beginSsoStepUp(serviceContext(ctx), input) })),

  /**
   * Console only: change your own password (needs the current one). Ends every session of the
   * account, this one too, and sets the cookie of a new one for this browser.
   */
  changePassword: writeProcedure
    .input(ChangePasswordInput)
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      const { sessionId, email } = await changePassword(serviceContext(ctx), input);
      if (sessionId) {
        const { principal } = ctx;
        const sso = principal.ssoTenantId ? { ssoTenantId: principal.ssoTenantId, providerId: principal.ssoProviderId ?? undefined } : {};
        ctx.response.headers["Set-Cookie"] = await sessionCookie({ userId: principal.userId, email, sessionId, ...sso });
      }
      return { ok: true as const };
    }),

  /** Console only: the account's second factors. */
  mfa: mfaRouter,

  /** Console only: the account's live console sessions (profile → Sessions). */
  sessions: authedProcedure
    .input(z.object({}).optional())
    .output(SessionList)
    .query(({ ctx }) => listSessions(serviceContext(ctx))),

  /** Console only: end one of your sessions (another browser); its cookie stops working at once. */
  endSession: writeProcedure
    .input(EndSessionInput)
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await endSession(serviceContext(ctx), input);
      return { ok: true as const };
    }),

  /** Console only: end every session of the account, this one included (the console signs out next). */
  signOutEverywhere: writeProcedure
    .input(z.object({}).optional())
    .output(z.object({ sessions_ended: z.number().int() }))
    .mutation(({ ctx }) => signOutEverywhere(serviceContext(ctx))),

  requestPasswordReset: publicProcedure
    .meta({
      successStatus: 202,
      openapi: {
        method: "POST",
        path: "/auth/password-reset",
        operationId: operationId("requestPasswordReset"),
        tags,
        summary: "Forgot password: mail a reset link",
        description:
          `Public. Mails a single-use link, valid ${PASSWORD_RESET_TTL_MINUTES} minutes, when the email has an account; answers 202 with the same body either way. ` +
          "Five requests per email (thirty per client IP) within 15 minutes, then 429 with Retry-After.",
      },
    })
    .input(PasswordResetRequestInput)
    .output(PasswordResetAccepted)
    .mutation(async ({ ctx, input }) => {
      await requestPasswordReset(ctx.db, ctx.request, input.email);
      ctx.response.status = 202;
      return { message: "If an account exists for this email, a link to reset its password is on its way." };
    }),

  confirmPasswordReset: publicProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/auth/password-reset/confirm",
        operationId: operationId("confirmPasswordReset"),
        tags,
        summary: "Set a new password with a reset link's token",
        description:
          "The link works once; the account's other reset links, every console session (copies of its cookie included) and every step-up end. " +
          "With `revoke_tokens: true` every API token of the account is revoked too. Invalid, used or expired: 404. Emits `user.password_reset` (with the counts).",
      },
    })
    .input(PasswordResetConfirmInput)
    .output(PasswordResetDone)
    .mutation(({ ctx, input }) => completePasswordReset(ctx.db, ctx.request, input)),
});
