import type { z } from "zod";
import type { AuditEvent, AuditPage } from "@/server/audit/schemas";
import type { AuditSearchPage, AuditSearchResult } from "@/server/audit/search-schemas";

/** One audit event as audit.list returns it (the event's fields plus its place in the hash chain). */
export type AuditEventView = AuditEvent;

/** A page of audit.list (the list envelope). */
export type AuditPageView = z.infer<typeof AuditPage>;

/** One result of the platform search (audit.search): an event and its tenant's name. */
export type AuditSearchResultView = AuditSearchResult;

/** A page of audit.search. */
export type AuditSearchPageView = z.infer<typeof AuditSearchPage>;
