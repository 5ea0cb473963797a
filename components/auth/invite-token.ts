"use client";

import { linkToken } from "./public-api";

/**
 * An invitation's token while its invitee goes to sign in: kept in this tab's session storage (never
 * in a URL, where the server's logs would see it), and picked up again when sign-in returns to
 * /invite.
 */
const KEY = "control-plane.invitation-token";

/** The invitation's token: the link's fragment (#token=…), else the one kept while signing in. */
export function invitationToken(): string | null {
  const linked = linkToken();
  if (linked) return linked;
  try {
    return window.sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function keepInvitationToken(token: string): void {
  try {
    window.sessionStorage.setItem(KEY, token);
  } catch {
    // Storage refused (private mode): the invitation still waits in the console after sign-in.
  }
}

export function forgetInvitationToken(): void {
  try {
    window.sessionStorage.removeItem(KEY);
  } catch {
    // Nothing kept.
  }
}
