"use client";

/**
 * SSO in a popup, so the page underneath (and whatever is typed on it) stays as it is: the popup
 * goes to the identity provider and comes back to /auth/popup-done, which tells every console tab
 * how it went on a BroadcastChannel and closes itself. A BroadcastChannel rather than
 * `window.opener`: the IdP's pages may sever the opener (Cross-Origin-Opener-Policy).
 */

export const AUTH_CHANNEL = "cp-auth";
const POPUP_NAME = "cp-sso";
const POPUP_FEATURES = "popup,width=520,height=720";

/** What /auth/popup-done announces: which flow came back, and its refusal reason (null: it worked). */
export interface PopupResult {
  for: "stepup" | "signin";
  error: string | null;
}

export function isPopupResult(value: unknown): value is PopupResult {
  const v = value as PopupResult | null;
  return (v?.for === "stepup" || v?.for === "signin") && (v.error === null || typeof v.error === "string");
}

/**
 * Opens (or reuses) the SSO window. Call it synchronously in the click handler, before any await:
 * browsers only allow popups a person asked for. Null when the browser blocked it.
 */
export function openSsoPopup(): Window | null {
  return window.open("about:blank", POPUP_NAME, POPUP_FEATURES);
}

/** Sends the SSO window (opened by openSsoPopup) to a URL (a path is this console's). */
export function navigateSsoPopup(popup: Window, url: string): void {
  popup.location.href = new URL(url, window.location.origin).href;
}

/**
 * Posts "Continue with SSO" (the login page's form: work email, and where to land) into the SSO
 * window. A form post, as on the login page, so the sign-in starts exactly as it does there.
 */
export function postSsoSignInInPopup(email: string, returnTo: string): boolean {
  const popup = openSsoPopup();
  if (!popup) return false;
  const form = document.createElement("form");
  form.method = "post";
  form.action = "/api/sso/signin";
  form.target = POPUP_NAME;
  for (const [name, value] of Object.entries({ email, callbackUrl: returnTo })) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
  form.remove();
  return true;
}

/** Calls `onResult` for each result announced for `purpose`; returns the unsubscribe. */
export function onPopupResult(purpose: PopupResult["for"], onResult: (result: PopupResult) => void): () => void {
  if (typeof BroadcastChannel === "undefined") return () => undefined;
  const channel = new BroadcastChannel(AUTH_CHANNEL);
  channel.onmessage = (event: MessageEvent) => {
    if (isPopupResult(event.data) && event.data.for === purpose) onResult(event.data);
  };
  return () => channel.close();
}
