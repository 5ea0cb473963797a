import type { Metadata } from "next";
import { PublicPage } from "@/components/auth/public-page";
import { PopupDone } from "@/components/auth/popup-done";
import { popupErrorMessage } from "@/components/auth/messages";

export const metadata: Metadata = { title: "Signed in" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * Where an SSO popup lands (a step-up, or signing in again after the session expired): it tells
 * the console page how it went and closes itself (components/auth/sso-popup.ts).
 */
export default async function PopupDonePage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const purpose = first(params.for) === "stepup" ? "stepup" : "signin";
  const error =
    first(params.error)
      ?.replace(/[^a-z_]/g, "")
      .slice(0, 40) || null;
  const message = error
    ? popupErrorMessage(purpose, error)
    : purpose === "stepup"
      ? "Confirmed. You can close this window."
      : "You are signed in again. You can close this window.";
  return (
    <PublicPage title={error ? "Not confirmed" : "Done"} description={message}>
      <PopupDone purpose={purpose} error={error} />
    </PublicPage>
  );
}
