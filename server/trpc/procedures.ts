/**
 * Who may call is the first word of every procedure:
 * publicProcedure, authedProcedure, operatorProcedure (and, with identity, tenantProcedure(role)).
 */
import { AppError, Forbidden, Unauthenticated } from "../errors.ts";
import { isOperator, mayWrite } from "../auth/policy.ts";
import { baseProcedure, middleware } from "./init.ts";
import { toTRPCError } from "./errors.ts";

/** Turns domain errors thrown by services into tRPC errors that keep the domain error as cause. */
const mapDomainErrors = middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) throw toTRPCError(result.error.cause);
  return result;
});

export const publicProcedure = baseProcedure.use(mapDomainErrors);

export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.principal) {
    throw ctx.authError === "invalid_token"
      ? Unauthenticated("The access token is invalid, expired or revoked", "invalid_token")
      : Unauthenticated();
  }
  return next({ ctx: { ...ctx, principal: ctx.principal } });
});

/** Platform operators only; writes, so a read-only token is refused. */
export const operatorProcedure = authedProcedure.use(({ ctx, next }) => {
  if (!isOperator(ctx.principal)) throw Forbidden("Only platform operators may do this");
  if (!mayWrite(ctx.principal)) throw Forbidden("This token is read-only");
  return next();
});
