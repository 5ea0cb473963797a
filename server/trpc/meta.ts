import type { OpenApiMeta } from "trpc-to-openapi";

/**
 * Who may call a procedure, set by the procedure builders (procedures.ts) so that tests and docs
 * can read it: anyone signed in, operators only, or a tenant role.
 */
export type Access = "user" | "operator" | "tenant:viewer" | "tenant:admin";

/**
 * Procedure meta: the REST mapping, the success status the REST docs show (`location: false`: a
 * 201 without Location, as `createdMany` answers), and access.
 */
export type Meta = OpenApiMeta<{ successStatus?: 201 | 202 | 204; location?: false; access?: Access; stepUp?: boolean; write?: boolean }>;
