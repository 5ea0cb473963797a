import { initTRPC } from "@trpc/server";
import type { Meta } from "./meta.ts";
import { ZodError } from "zod";
import { AppError, fieldErrorsOf } from "../errors.ts";
import type { Context } from "./context.ts";

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error, input }) {
      const cause = error.cause;
      const internal = error.code === "INTERNAL_SERVER_ERROR" && !(cause instanceof AppError);
      return {
        ...shape,
        // Never show an internal error's message (it may carry SQL or a path) to the client.
        message: internal ? "Internal server error" : shape.message,
        data: {
          code: shape.data.code,
          httpStatus: shape.data.httpStatus,
          appCode: cause instanceof AppError ? cause.code : undefined,
          errors: cause instanceof ZodError ? fieldErrorsOf(cause, input) : cause instanceof AppError ? cause.options.errors : undefined,
        },
      };
    },
  });

export const router = t.router;
export const middleware = t.middleware;
export const baseProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;
