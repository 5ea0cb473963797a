import type { Metadata } from "next";
import type { ReactNode } from "react";
import { connection } from "next/server";
import { requestTheme } from "./theme";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Control Plane", template: "%s · Control Plane" },
  description: "Configure SSO, audit logs and webhooks for your tenants.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: Next can only put the CSP nonce (proxy.ts) on its scripts then.
  await connection();
  // The theme class comes from the cookie, so the first paint has the right colours (globals.css).
  const theme = await requestTheme();
  return (
    <html lang="en" className={theme}>
      <body className="min-h-screen">{children}</body>
    </html>
  );
}
