import type { OpenApiMeta } from "trpc-to-openapi";

/** Procedure meta: the REST mapping plus the success status the REST docs should show. */
export type Meta = OpenApiMeta<{ successStatus?: 201 | 204 }>;
