import type { z } from "zod";
import type { AuditEvent, AuditPage } from "@/server/audit/schemas";

/** One audit event as audit.list returns it (the event's fields plus its place in the hash chain). */
export type AuditEventView = AuditEvent;

/** A page of audit.list (the list envelope). */
export type AuditPageView = z.infer<typeof AuditPage>;
