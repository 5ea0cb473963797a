/**
 * SCIM errors (RFC 7644 §3.12): `{schemas: [Error URN], status: "400", scimType?, detail}`, with
 * `status` a string. Every part of the SCIM service throws ScimError; the endpoint answers it.
 */
export const ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";

/** RFC 7644 Table 9, the scimType values for 400 (and `uniqueness` for 409). */
export type ScimType =
  | "invalidFilter"
  | "tooMany"
  | "uniqueness"
  | "mutability"
  | "invalidSyntax"
  | "invalidPath"
  | "noTarget"
  | "invalidValue"
  | "invalidVers"
  | "sensitive";

export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly scimType: ScimType | null,
    readonly detail: string,
  ) {
    super(detail);
    this.name = "ScimError";
  }
}

export const invalidFilter = (detail: string) => new ScimError(400, "invalidFilter", detail);
export const invalidPath = (detail: string) => new ScimError(400, "invalidPath", detail);
export const invalidValue = (detail: string) => new ScimError(400, "invalidValue", detail);
export const invalidSyntax = (detail: string) => new ScimError(400, "invalidSyntax", detail);
export const noTarget = (detail: string) => new ScimError(400, "noTarget", detail);
export const mutability = (detail: string) => new ScimError(400, "mutability", detail);
/** RFC 7644 defines tooMany for too many results; here also for a request past one of limits.ts's caps. */
export const tooMany = (detail: string) => new ScimError(400, "tooMany", detail);
export const uniqueness = (detail: string) => new ScimError(409, "uniqueness", detail);
export const scimNotFound = (detail: string) => new ScimError(404, null, detail);

export interface ScimErrorBody {
  schemas: [typeof ERROR_SCHEMA];
  status: string;
  scimType?: ScimType;
  detail: string;
}

export function scimErrorBody(error: ScimError): ScimErrorBody {
  return {
    schemas: [ERROR_SCHEMA],
    status: String(error.status),
    ...(error.scimType ? { scimType: error.scimType } : {}),
    detail: error.detail,
  };
}
