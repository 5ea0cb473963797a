import type { Metadata } from "next";
import type { ReactNode } from "react";
import { connection } from "next/server";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Control Plane", template: "%s · Control Plane" },
  description: "Configure SSO, audit logs and webhooks for your tenants.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: Next can only put the CSP nonce (proxy.ts) on its scripts then.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen">{children}</body>
    </html>
  );
}
