"use client";

import { createTRPCContext } from "@trpc/tanstack-react-query";
import type { TRPCClientErrorLike } from "@trpc/client";
import type { AppRouter } from "@/server/app/router";

/** `const trpc = useTRPC(); useQuery(trpc.tenants.list.queryOptions({...}))`. */
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export type ApiError = TRPCClientErrorLike<AppRouter>;

/** The HTTP status a tRPC error stands for (0 when the request never got an answer). */
export function statusOf(error: unknown): number {
  const data = (error as { data?: { httpStatus?: number } } | null)?.data;
  return data?.httpStatus ?? 0;
}

/** Field errors (`[{path, message}]`) the server attached to a validation error. */
export function fieldErrorsOf(error: unknown): Array<{ path: string; message: string }> {
  const data = (error as { data?: { errors?: Array<{ path: string; message: string }> } } | null)?.data;
  return data?.errors ?? [];
}

/** What to tell a person about a failed call: the server's words for 4xx, a generic line else. */
export function messageOf(error: unknown): string {
  const status = statusOf(error);
  if (status >= 400 && status < 500 && error instanceof Error && error.message) return error.message;
  return status === 0
    ? "The server could not be reached. Check your connection and try again."
    : "Something went wrong on our side. Try again in a moment.";
}
