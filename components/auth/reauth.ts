"use client";

/**
 * Signing in again when the session expired mid-edit. A mutation answering 401 `unauthenticated`
 * waits here (the tRPC link `reauthLink` holds it) while the sign-in dialog is open; once the same
 * user has signed in again it is sent again, so the edit is saved and the form never notices.
 * Cancelling, or signing in as someone else, fails it with the original error: the form keeps
 * what was typed and shows why.
 */
import { observable } from "@trpc/server/observable";
import type { TRPCLink } from "@trpc/client";
import type { AppRouter } from "@/server/app/router";

type Outcome = "same-user" | "other-user" | "cancelled";

interface ReauthState {
  /** A sign-in is being asked for. */
  open: boolean;
  /** Why the last attempt could not retry, to explain in the console. */
  notice: string | null;
}

let state: ReauthState = { open: false, notice: null };
let waiting: Array<(outcome: Outcome) => void> = [];
const listeners = new Set<() => void>();

function set(next: Partial<ReauthState>) {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

export const reauthStore = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: () => state,
  /** The dialog's answer: every waiting mutation hears it. */
  finish(outcome: Outcome, notice: string | null = null) {
    const resolve = waiting;
    waiting = [];
    set({ open: false, notice });
    for (const done of resolve) done(outcome);
  },
  dismissNotice: () => set({ notice: null }),
};

/** Opens the dialog (once for any number of failed calls) and waits for its outcome. */
export function signInAgain(): Promise<Outcome> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!state.open) set({ open: true, notice: null });
  });
}

/**
 * Whether the console session is really gone. A 401 `unauthenticated` also answers a wrong
 * password (step-up), which must reach its form, not open a sign-in.
 */
export async function sessionGone(): Promise<boolean> {
  const session = (await fetch("/api/auth/session")
    .then((response) => response.json())
    .catch(() => null)) as { user?: unknown } | null;
  return session !== null && !session.user;
}

function isExpiredSession(error: unknown): boolean {
  const data = (error as { data?: { httpStatus?: number; appCode?: string } } | null)?.data;
  return data?.httpStatus === 401 && data.appCode === "unauthenticated";
}

/** Holds a mutation that failed for an expired session until the user signs in again, then retries it once. */
export const reauthLink: TRPCLink<AppRouter> = () => {
  return ({ op, next }) =>
    observable((observer) => {
      let retried = false;
      let subscription = next(op).subscribe({ next: (v) => observer.next(v), complete: () => observer.complete(), error: onError });
      function onError(error: Parameters<typeof observer.error>[0]) {
        if (op.type !== "mutation" || retried || !isExpiredSession(error)) {
          observer.error(error);
          return;
        }
        retried = true;
        void sessionGone()
          .then((gone) => (gone ? signInAgain() : "not-expired"))
          .then((outcome) => {
            if (outcome !== "same-user") {
              observer.error(error);
              return;
            }
            subscription = next(op).subscribe({
              next: (v) => observer.next(v),
              complete: () => observer.complete(),
              error: (e) => observer.error(e),
            });
          });
      }
      return () => subscription.unsubscribe();
    });
};
