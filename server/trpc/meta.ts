import type { OpenApiMeta } from "trpc-to-openapi";
import type { z } from "zod";
import type { SetupIntent } from "../auth/principal.ts";

/**
 * Who may call a procedure, set by the procedure builders (procedures.ts) so that tests and docs
 * can read it: anyone signed in, operators only, a tenant role, or a setup link's guided flow.
 */
export type Access = "user" | "operator" | "tenant:viewer" | "tenant:admin" | `setup:${SetupIntent | "any"}`;

/** One of the successes of an operation that has several, each with its own body (a schema with a `meta({ id })`). */
export interface Outcome {
  body: z.ZodType;
  description: string;
}

/**
 * Procedure meta: the REST mapping, the success status the REST docs show (`location: false`: a
 * 201 without Location, as `createdMany` answers), and access. `outcomes` documents an operation
 * whose output is a union answered with different statuses (adding a member: 201 added, 202
 * invited), one body per status. `signedInOptional`: a public operation that reads a credential when
 * one is sent (accepting an invitation as an existing account), so it may answer 401 and 403.
 */
export type Meta = OpenApiMeta<{
  successStatus?: 201 | 202 | 204;
  location?: false;
  outcomes?: Partial<Record<200 | 201 | 202, Outcome>>;
  access?: Access;
  signedInOptional?: true;
  stepUp?: boolean;
  write?: boolean;
}>;
