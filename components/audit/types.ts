import type { z } from "zod";
import type { AuditEvent, AuditPage } from "@/server/audit/schemas";

/** One audit event as audit.list returns it (DESIGN §5 plus the hash chain). */
export type AuditEventView = AuditEvent;

/** A page of audit.list (DESIGN §3 envelope). */
export type AuditPageView = z.infer<typeof AuditPage>;
