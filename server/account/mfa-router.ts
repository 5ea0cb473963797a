/** Console only: the account's second factors (profile → Two-factor authentication). No REST operation. */
import { z } from "zod";
import { router } from "../trpc/init.ts";
import { authedProcedure, writeProcedure } from "../trpc/procedures.ts";
import { serviceContext } from "../trpc/context.ts";
import {
  ConfirmTotpInput,
  MfaFactor,
  MfaStatus,
  RecoveryCodes,
  RemoveFactorInput,
  RenameFactorInput,
  StartTotpInput,
  TotpConfirmed,
  TotpEnrolment,
} from "./schemas.ts";
import { confirmTotp, mfaStatus, regenerateRecoveryCodes, removeFactor, renameFactor, startTotp } from "./mfa.ts";

export const mfaRouter = router({
  /** The account's factors (never their secrets) and how many recovery codes are left. */
  status: authedProcedure
    .input(z.object({}).optional())
    .output(MfaStatus)
    .query(({ ctx }) => mfaStatus(serviceContext(ctx))),

  /** Step-up: a new authenticator app's secret and QR code; it counts once confirmed. */
  startTotp: writeProcedure
    .meta({ stepUp: true })
    .input(StartTotpInput)
    .output(TotpEnrolment)
    .mutation(({ ctx, input }) => startTotp(serviceContext(ctx), input)),

  /** The app's first code: the factor counts from now; the first one comes with recovery codes. */
  confirmTotp: writeProcedure
    .input(ConfirmTotpInput)
    .output(TotpConfirmed)
    .mutation(({ ctx, input }) => confirmTotp(serviceContext(ctx), input)),

  rename: writeProcedure
    .input(RenameFactorInput)
    .output(MfaFactor)
    .mutation(({ ctx, input }) => renameFactor(serviceContext(ctx), input)),

  /** Step-up; the last factor needs one of the last two minutes. */
  remove: writeProcedure
    .meta({ stepUp: true })
    .input(RemoveFactorInput)
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await removeFactor(serviceContext(ctx), input);
      return { ok: true as const };
    }),

  /** Step-up: ten new recovery codes replace the old ones. */
  regenerateRecoveryCodes: writeProcedure
    .meta({ stepUp: true })
    .input(z.object({}).optional())
    .output(RecoveryCodes)
    .mutation(({ ctx }) => regenerateRecoveryCodes(serviceContext(ctx))),
});
