/** What the guided setup page (app/setup/page.tsx) reads on the server: this browser's setup session, if live. */
import { cookies } from "next/headers";
import { database } from "../db/client.ts";
import type { SetupIntent } from "../auth/principal.ts";
import { SETUP_COOKIE } from "./schemas.ts";
import { setupPrincipal } from "./service.ts";

export interface SetupPageSession {
  intent: SetupIntent;
  tenantName: string;
  createdByEmail: string | null;
}

export async function setupPageSession(): Promise<SetupPageSession | null> {
  const token = (await cookies()).get(SETUP_COOKIE)?.value;
  if (!token) return null;
  const db = await database();
  const principal = await setupPrincipal(db, token);
  const link = principal?.setupLink;
  if (!link) return null;
  const tenant = await db.prisma.tenant.findUnique({ where: { id: link.tenantId }, select: { name: true } });
  return tenant ? { intent: link.intent, tenantName: tenant.name, createdByEmail: link.createdBy.email } : null;
}
