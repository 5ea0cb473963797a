/**
 * The OpenAPI description of the broker's OAuth 2.0 endpoints, which are route handlers outside
 * /api/v1 (browser redirects, form bodies, RFC 6749 errors): written by hand, each path carrying
 * its own server (the origin, not /api/v1).
 */
import { ACCESS_TOKEN_TTL_S } from "./grants.ts";

type Json = Record<string, unknown>;

const str = (description: string, extra: Json = {}): Json => ({ type: "string", description, ...extra });

export const BROKER_SCHEMAS: Json = {
  BrokerProfile: {
    type: "object",
    description: "The person the IdP vouched for, as the application receives it.",
    required: [
      "id",
      "email",
      "first_name",
      "last_name",
      "groups",
      "idp_id",
      "issuer",
      "tenant_id",
      "provider_id",
      "provider_type",
      "protocol",
      "raw_attributes",
    ],
    properties: {
      id: str(
        "Stable for (provider, IdP subject): UUID v5 of the subject (OIDC `sub`, SAML NameID) in the namespace of the provider's id.",
        {
          format: "uuid",
        },
      ),
      email: str("Lower-cased; always in one of the provider's domains."),
      first_name: { type: ["string", "null"] },
      last_name: { type: ["string", "null"] },
      groups: {
        type: "array",
        items: { type: "string" },
        description: "For a directory user of the tenant, the names of their directory groups; otherwise the IdP's groups claim.",
      },
      idp_id: str("The person's id at the IdP, as the IdP sent it: OIDC `sub`, SAML NameID (as WorkOS's `idp_id`)."),
      issuer: str("Which IdP vouched: the OIDC issuer (`iss`), or the SAML Issuer / entity ID."),
      tenant_id: str("The tenant whose provider signed the person in: trust the profile for this tenant only.", { format: "uuid" }),
      provider_id: { type: "string", format: "uuid" },
      provider_type: { type: "string", enum: ["saml", "oidc", "google_workspace", "azure_ad"] },
      protocol: { type: "string", enum: ["saml", "oidc"] },
      raw_attributes: { type: "object", additionalProperties: true, description: "Every claim or attribute received." },
      directory_user_id: str("Present when the person is a user of one of the tenant's directories (Directory Sync): that user's id.", {
        format: "uuid",
      }),
    },
  },
  OAuthError: {
    type: "object",
    description: "RFC 6749 §5.2 error.",
    required: ["error", "error_description"],
    properties: {
      error: { type: "string", enum: ["invalid_request", "invalid_client", "invalid_grant", "unsupported_grant_type", "invalid_token"] },
      error_description: { type: "string" },
    },
  },
};

const oauthError = (description: string, headers: Json = {}) => ({
  description,
  headers: { "Cache-Control": { schema: { type: "string", enum: ["no-store"] } }, ...headers },
  content: { "application/json": { schema: { $ref: "#/components/schemas/OAuthError" } } },
});

const query = (name: string, description: string, required = false, schema: Json = { type: "string" }) => ({
  name,
  in: "query",
  required,
  description,
  schema,
});

export function brokerPaths(origin: string): Json {
  const servers = [{ url: origin }];
  const tags = ["SSO OAuth broker"];
  return {
    "/api/sso/authorize": {
      servers,
      get: {
        operationId: "sso-authorize",
        tags,
        summary: "Start a sign-in for an application (OAuth 2.0 authorization code + PKCE)",
        description:
          "Send the person's browser here. Exactly one of `provider_id`, `tenant_id` (its one enabled provider), `domain` or " +
          "`login_hint` (an email: its domain) picks the provider. Unknown `client_id`, or a `redirect_uri` not registered " +
          "(exact match) → 400 and no redirect. Other errors (`invalid_request`, `unsupported_response_type`, `access_denied`, " +
          "`server_error`) redirect to `redirect_uri` with `error`, `error_description`, `state` (RFC 6749 §4.1.2.1). " +
          "After the IdP: `redirect_uri?code=…&state=…` (code: single use, 60 s).",
        security: [],
        parameters: [
          query("response_type", "`code`.", true, { type: "string", enum: ["code"] }),
          query("client_id", "The application's client ID.", true),
          query("redirect_uri", "One of the application's redirect URIs, exactly.", true),
          query("state", "Returned unchanged (≤ 1024 characters). Recommended."),
          query("code_challenge", "BASE64URL(SHA-256(code_verifier)), 43 characters.", true),
          query("code_challenge_method", "`S256` (plain is refused).", true, { type: "string", enum: ["S256"] }),
          query("provider_id", "An SSO provider's id."),
          query("tenant_id", "A tenant with exactly one enabled provider."),
          query("domain", "An email domain of an enabled provider."),
          query("login_hint", "The person's email: its domain picks the provider, and the IdP receives it as a hint."),
        ],
        responses: {
          "303": {
            description: "To the IdP; or back to `redirect_uri` with `code` and `state`, or with `error`, `error_description` and `state`.",
            headers: { Location: { schema: { type: "string", format: "uri" } } },
          },
          "400": {
            description: "Unknown client or unregistered redirect_uri: an HTML page (Accept: text/html) or JSON; nothing is redirected.",
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/OAuthError" } },
              "text/html": { schema: { type: "string" } },
            },
          },
        },
      },
    },
    "/api/sso/token": {
      servers,
      post: {
        operationId: "sso-token",
        tags,
        summary: "Exchange the code for an access token and the profile",
        description:
          "Client authentication: `client_secret_basic` (HTTP Basic of the form-urlencoded client ID and secret) or " +
          "`client_secret_post` (`client_id` and `client_secret` in the body), not both. The code is bound to the client and " +
          "`redirect_uri`, must match `code_verifier` (PKCE S256) and works once: a second use is `invalid_grant` and revokes " +
          `the token the first use got. The access token is opaque, lasts ${ACCESS_TOKEN_TTL_S} s and only reads /api/sso/profile.`,
        security: [{ brokerClientBasic: [] }, {}],
        requestBody: {
          required: true,
          content: {
            "application/x-www-form-urlencoded": {
              schema: {
                type: "object",
                required: ["grant_type", "code", "redirect_uri", "code_verifier"],
                properties: {
                  grant_type: { type: "string", enum: ["authorization_code"] },
                  code: { type: "string" },
                  redirect_uri: { type: "string" },
                  code_verifier: { type: "string", minLength: 43, maxLength: 128 },
                  client_id: { type: "string", description: "client_secret_post only." },
                  client_secret: { type: "string", description: "client_secret_post only." },
                },
              },
            },
          },
        },
        responses: {
          "200": {
            description: "The access token and the profile.",
            headers: { "Cache-Control": { schema: { type: "string", enum: ["no-store"] } } },
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["access_token", "token_type", "expires_in", "profile"],
                  properties: {
                    access_token: { type: "string" },
                    token_type: { type: "string", enum: ["Bearer"] },
                    expires_in: { type: "integer", description: "Seconds." },
                    profile: { $ref: "#/components/schemas/BrokerProfile" },
                  },
                },
              },
            },
          },
          "400": oauthError("`invalid_request`, `invalid_grant` or `unsupported_grant_type`."),
          "401": oauthError("`invalid_client`: unknown client or wrong secret.", {
            "WWW-Authenticate": { schema: { type: "string" }, description: '`Basic realm="sso"`' },
          }),
        },
      },
    },
    "/api/sso/profile": {
      servers,
      get: {
        operationId: "sso-profile",
        tags,
        summary: "Read the profile with the access token",
        security: [{ brokerAccessToken: [] }],
        responses: {
          "200": {
            description: "The profile the token was issued with.",
            headers: { "Cache-Control": { schema: { type: "string", enum: ["no-store"] } } },
            content: { "application/json": { schema: { $ref: "#/components/schemas/BrokerProfile" } } },
          },
          "401": oauthError("`invalid_token`: missing, unknown or expired.", {
            "WWW-Authenticate": {
              schema: { type: "string" },
              description: '`Bearer realm="sso"`, with `error="invalid_token"` for a bad token',
            },
          }),
        },
      },
    },
  };
}

export const BROKER_SECURITY_SCHEMES: Json = {
  brokerClientBasic: { type: "http", scheme: "basic", description: "An application's client ID and secret (client_secret_basic)." },
  brokerAccessToken: { type: "http", scheme: "bearer", description: "An access token from /api/sso/token (not an API token)." },
};
