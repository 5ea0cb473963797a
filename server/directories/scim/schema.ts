/**
 * The SCIM schemas this service provider speaks (RFC 7643 §4, §8.7.1): User, Group and the
 * enterprise User extension, as data. The filter, the PATCH paths and the stored form all look
 * attributes up here, so names are matched case-insensitively (RFC 7643 §2.1) in one place.
 */
import { ENTERPRISE_USER } from "../present.ts";
import { invalidValue } from "./errors.ts";
import { assertListSizes, MAX_ATTRIBUTE_VALUES, MAX_MEMBERS_PER_REQUEST, MAX_OPERATION_VALUES } from "./limits.ts";

export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
export const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
export { ENTERPRISE_USER } from "../present.ts";
export type ResourceKind = "User" | "Group";

export type AttributeType = "string" | "boolean" | "decimal" | "integer" | "dateTime" | "reference" | "binary" | "complex";

export interface ScimAttribute {
  name: string;
  type: AttributeType;
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: "readOnly" | "readWrite" | "immutable" | "writeOnly";
  returned: "always" | "never" | "default" | "request";
  uniqueness: "none" | "server" | "global";
  canonicalValues?: string[];
  referenceTypes?: string[];
  subAttributes?: ScimAttribute[];
}

export interface ScimSchemaDefinition {
  schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"];
  id: string;
  name: string;
  description: string;
  attributes: ScimAttribute[];
  meta: { resourceType: "Schema"; location: string };
}

type Options = Partial<Omit<ScimAttribute, "name" | "type" | "subAttributes">>;
function attribute(name: string, type: AttributeType, description: string, options: Options = {}, subAttributes?: ScimAttribute[]) {
  return {
    name,
    type,
    multiValued: false,
    description,
    required: false,
    caseExact: false,
    mutability: "readWrite",
    returned: "default",
    uniqueness: "none",
    ...options,
    ...(subAttributes ? { subAttributes } : {}),
  } satisfies ScimAttribute as ScimAttribute;
}
const text = (name: string, description: string, options?: Options) => attribute(name, "string", description, options);

/** What a multi-valued attribute's description says of its cap (limits.ts). */
const capped = (description: string) => `${description} At most ${MAX_ATTRIBUTE_VALUES} values.`;

/** The usual sub-attributes of a multi-valued attribute (RFC 7643 §2.4). */
function multi(name: string, description: string, types: string[], value: ScimAttribute = text("value", `The ${name} value.`)) {
  return attribute(name, "complex", capped(description), { multiValued: true }, [
    value,
    text("display", "A human-readable name, primarily used for display purposes."),
    text("type", "A label indicating the attribute's function.", { canonicalValues: types }),
    attribute("primary", "boolean", "Whether this is the preferred value."),
  ]);
}

const USER_ATTRIBUTES: ScimAttribute[] = [
  text("userName", "Unique identifier for the User, used to authenticate.", { required: true, uniqueness: "server" }),
  attribute("name", "complex", "The components of the user's real name.", {}, [
    text("formatted", "The full name, formatted for display."),
    text("familyName", "The family name (last name)."),
    text("givenName", "The given name (first name)."),
    text("middleName", "The middle name(s)."),
    text("honorificPrefix", "The honorific prefix(es), e.g. 'Ms.'."),
    text("honorificSuffix", "The honorific suffix(es), e.g. 'III'."),
  ]),
  text("displayName", "The name of the User, suitable for display to end-users."),
  text("nickName", "The casual way to address the user."),
  attribute("profileUrl", "reference", "A URI of the user's online profile.", { referenceTypes: ["external"] }),
  text("title", "The user's title, such as 'Vice President'."),
  text("userType", "The relationship between the organization and the user."),
  text("preferredLanguage", "The user's preferred written or spoken language."),
  text("locale", "The user's default location for localization."),
  text("timezone", "The user's time zone in the IANA Time Zone database format."),
  attribute("active", "boolean", "The user's administrative status."),
  text("password", "The user's cleartext password (never stored or returned here).", { mutability: "writeOnly", returned: "never" }),
  multi("emails", "Email addresses for the user.", ["work", "home", "other"]),
  multi("phoneNumbers", "Phone numbers for the user.", ["work", "home", "mobile", "fax", "pager", "other"]),
  multi("ims", "Instant messaging addresses for the user.", ["aim", "gtalk", "icq", "xmpp", "msn", "skype", "qq", "yahoo"]),
  multi(
    "photos",
    "URLs of photos of the user.",
    ["photo", "thumbnail"],
    attribute("value", "reference", "URL of a photo.", { referenceTypes: ["external"] }),
  ),
  attribute("addresses", "complex", capped("A physical mailing address for this user."), { multiValued: true }, [
    text("formatted", "The full mailing address."),
    text("streetAddress", "The full street address component."),
    text("locality", "The city or locality component."),
    text("region", "The state or region component."),
    text("postalCode", "The zip code or postal code component."),
    text("country", "The country name component."),
    text("type", "A label indicating the attribute's function.", { canonicalValues: ["work", "home", "other"] }),
    attribute("primary", "boolean", "Whether this is the preferred mailing address."),
  ]),
  attribute(
    "groups",
    "complex",
    "The groups the user belongs to (read-only: set through Group membership).",
    { multiValued: true, mutability: "readOnly" },
    [
      text("value", "The identifier of the User's group.", { mutability: "readOnly" }),
      attribute("$ref", "reference", "The URI of the Group resource.", { mutability: "readOnly", referenceTypes: ["Group"] }),
      text("display", "The group's display name.", { mutability: "readOnly" }),
      text("type", "How the membership was derived: 'direct' or 'indirect'.", {
        mutability: "readOnly",
        canonicalValues: ["direct", "indirect"],
      }),
    ],
  ),
  multi("entitlements", "Entitlements for the user.", []),
  multi("roles", "Roles for the user.", []),
  multi("x509Certificates", "X.509 certificates issued to the user.", [], attribute("value", "binary", "The certificate (DER, base64).")),
];

const GROUP_ATTRIBUTES: ScimAttribute[] = [
  text("displayName", "A human-readable name for the Group.", { required: true }),
  attribute(
    "members",
    "complex",
    `The members of the Group: at most ${MAX_MEMBERS_PER_REQUEST} in a POST or PUT, and ${MAX_OPERATION_VALUES} in one PATCH operation (a group grows past it a PATCH at a time).`,
    { multiValued: true },
    [
      text("value", "Identifier of the member of this Group.", { mutability: "immutable" }),
      attribute("$ref", "reference", "The URI of the member resource.", { mutability: "immutable", referenceTypes: ["User", "Group"] }),
      text("display", "The member's display name.", { mutability: "immutable" }),
      text("type", "The type of the member: 'User'.", { mutability: "immutable", canonicalValues: ["User", "Group"] }),
    ],
  ),
];

const ENTERPRISE_ATTRIBUTES: ScimAttribute[] = [
  text("employeeNumber", "A string identifier, typically numeric or alphanumeric, assigned to a person."),
  text("costCenter", "Identifies the name of a cost center."),
  text("organization", "Identifies the name of an organization."),
  text("division", "Identifies the name of a division."),
  text("department", "Identifies the name of a department."),
  attribute("manager", "complex", "The user's manager.", {}, [
    text("value", "The id of the SCIM resource representing the user's manager."),
    attribute("$ref", "reference", "The URI of the manager's SCIM resource.", { referenceTypes: ["User"] }),
    text("displayName", "The displayName of the user's manager.", { mutability: "readOnly" }),
  ]),
];

/** The common attributes (RFC 7643 §3.1): not part of any schema representation, but filterable. */
export const COMMON_ATTRIBUTES: ScimAttribute[] = [
  text("id", "The resource's unique identifier.", { caseExact: true, mutability: "readOnly", returned: "always", uniqueness: "server" }),
  text("externalId", "The identifier the provisioning client gave the resource.", { caseExact: true }),
  attribute("meta", "complex", "Resource metadata.", { mutability: "readOnly" }, [
    text("resourceType", "The resource type.", { caseExact: true, mutability: "readOnly" }),
    attribute("created", "dateTime", "When the resource was added.", { mutability: "readOnly" }),
    attribute("lastModified", "dateTime", "When the resource was last changed.", { mutability: "readOnly" }),
    attribute("location", "reference", "The resource's URI.", { caseExact: true, mutability: "readOnly" }),
    text("version", "The resource's version (weak ETag).", { caseExact: true, mutability: "readOnly" }),
  ]),
];

const definition = (id: string, name: string, description: string, attributes: ScimAttribute[]): ScimSchemaDefinition => ({
  schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"],
  id,
  name,
  description,
  attributes,
  meta: { resourceType: "Schema", location: `/Schemas/${id}` },
});

/** RFC 7643 §7/§8.7.1 schema representations (User, Group, EnterpriseUser) for GET /Schemas. */
export const SCIM_SCHEMAS: readonly ScimSchemaDefinition[] = [
  definition(USER_SCHEMA, "User", "User Account", USER_ATTRIBUTES),
  definition(GROUP_SCHEMA, "Group", "Group", GROUP_ATTRIBUTES),
  definition(ENTERPRISE_USER, "EnterpriseUser", "Enterprise User", ENTERPRISE_ATTRIBUTES),
];

export const coreSchemaOf = (kind: ResourceKind) => (kind === "User" ? USER_SCHEMA : GROUP_SCHEMA);
/** The extension schemas a resource kind may carry (their objects are keyed by URN). */
export const extensionsOf = (kind: ResourceKind): string[] => (kind === "User" ? [ENTERPRISE_USER] : []);

const attributesOf = (urn: string): ScimAttribute[] => SCIM_SCHEMAS.find((schema) => schema.id === urn)?.attributes ?? [];

export const findAttribute = (attributes: readonly ScimAttribute[] | undefined, name: string) =>
  attributes?.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());

/** A URN of this kind's core or extension schemas in its canonical case, or null. */
export function knownSchemaUrn(kind: ResourceKind, urn: string): string | null {
  return [coreSchemaOf(kind), ...extensionsOf(kind)].find((known) => known.toLowerCase() === urn.toLowerCase()) ?? null;
}

/**
 * The attribute `name` of a schema (`urn` null or the core URN: the core schema and the common
 * attributes), or null when the schema doesn't define it (unknown attributes are kept as given).
 */
export function lookupAttribute(kind: ResourceKind, urn: string | null, name: string): ScimAttribute | null {
  const schema = urn === null ? coreSchemaOf(kind) : knownSchemaUrn(kind, urn);
  if (schema === null) return null;
  const common = schema === coreSchemaOf(kind) ? findAttribute(COMMON_ATTRIBUTES, name) : undefined;
  return common ?? findAttribute(attributesOf(schema), name) ?? null;
}

type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** A value for a known attribute, in stored form: booleans from "True"/"False", names canonical. */
export function canonicalValue(attribute: ScimAttribute, value: unknown, where: string, single = false): unknown {
  if (attribute.multiValued && !single) {
    // A single object where a list is expected: some clients send one email as an object.
    const list = Array.isArray(value) ? value : [value];
    return list.filter((item) => item !== null).map((item, index) => canonicalValue(attribute, item, `${where}[${index}]`, true));
  }
  switch (attribute.type) {
    case "complex": {
      if (!isObject(value)) throw invalidValue(`${where} must be an object`);
      return canonicalObject(attribute.subAttributes ?? [], value, where);
    }
    case "boolean": {
      if (typeof value === "boolean") return value;
      // Entra ID sends "True"/"False" (RFC 7643 §2.3.2 wants JSON booleans).
      if (typeof value === "string" && /^(true|false)$/i.test(value)) return value.toLowerCase() === "true";
      throw invalidValue(`${where} must be a boolean`);
    }
    case "decimal":
    case "integer":
      if (typeof value !== "number" || (attribute.type === "integer" && !Number.isInteger(value)))
        throw invalidValue(`${where} must be a number`);
      return value;
    case "dateTime":
      if (typeof value !== "string" || Number.isNaN(Date.parse(value))) throw invalidValue(`${where} must be an xsd:dateTime string`);
      return value;
    default:
      if (typeof value !== "string") throw invalidValue(`${where} must be a string`);
      return value;
  }
}

function canonicalObject(attributes: ScimAttribute[], value: Json, where: string): Json {
  const result: Json = {};
  for (const [key, item] of Object.entries(value)) {
    const known = findAttribute(attributes, key);
    if (key === "__proto__") continue; // would set the object's prototype, not a member
    if (!known) result[key] = item;
    else if (item !== null && item !== undefined) result[known.name] = canonicalValue(known, item, `${where}.${known.name}`);
  }
  return result;
}

/**
 * The resource as given → the stored form: attribute names in canonical case (per the schema,
 * case-insensitive; extension objects keyed by their URN), `id`, `meta` and read-only attributes
 * (`groups` of a User) dropped, unknown attributes kept as given, "True"/"False" strings for
 * boolean attributes turned into booleans. `members` of a Group is kept (the endpoint moves it to
 * the members table). Throws ScimError invalidValue/invalidSyntax on wrong types of known attributes,
 * tooMany on a list past its cap (limits.ts), before any other work.
 */
export function canonicalizeResource(kind: ResourceKind, input: Record<string, unknown>): Record<string, unknown> {
  assertListSizes(kind, input);
  const result: Json = {};
  const core = coreSchemaOf(kind);
  const put = (key: string, item: unknown) => {
    if (key.toLowerCase() === "schemas") {
      if (!Array.isArray(item) || !item.every((urn) => typeof urn === "string")) throw invalidValue("schemas must be a list of URNs");
      result.schemas = item;
      return;
    }
    const urn = knownSchemaUrn(kind, key);
    if (urn === core) {
      // Attributes nested under the core URN (allowed by RFC 7644 §3.10) are core attributes.
      if (!isObject(item)) throw invalidValue(`${key} must be an object`);
      for (const [inner, value] of Object.entries(item)) put(inner, value);
      return;
    }
    if (urn !== null) {
      if (!isObject(item)) throw invalidValue(`${urn} must be an object`);
      result[urn] = canonicalObject(attributesOf(urn), item, urn);
      return;
    }
    const known = lookupAttribute(kind, null, key);
    if (key === "__proto__") return; // would set the object's prototype, not a member
    if (!known) result[key] = item;
    // Read-only ones are the server's (id, meta, a User's groups); a password is never kept.
    else if (known.mutability === "readOnly" || known.mutability === "writeOnly") return;
    else if (item !== null && item !== undefined) result[known.name] = canonicalValue(known, item, known.name);
  };
  for (const [key, item] of Object.entries(input)) put(key, item);
  return result;
}
