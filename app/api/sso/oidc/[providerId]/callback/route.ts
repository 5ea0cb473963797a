/** Where an OpenID Provider sends the browser back (our redirect_uri, server/sso/sp.ts). */
import { finishCallback } from "@/server/sso/signin/callback";
import { completeOidc } from "@/server/sso/signin/oidc";
import { SsoRefused } from "@/server/sso/signin/protocol";

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: { params: Promise<{ providerId: string }> }) {
  const { providerId } = await params;
  const url = new URL(req.url);
  return finishCallback(req, {
    providerId,
    state: url.searchParams.get("state") ?? "",
    missing: new SsoRefused(
      "state",
      "the response's state matches no sign-in started in this browser (already used, or started elsewhere)",
    ),
    validate: (provider, pending) => {
      if (provider.protocol !== "oidc") throw new SsoRefused("unsupported", "this provider does not use OIDC");
      return completeOidc(provider, pending!, url);
    },
  });
}
