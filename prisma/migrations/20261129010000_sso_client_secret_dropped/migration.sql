-- An OIDC client secret is dropped when the provider's metadata URL (where the issuer and its token
-- endpoint are read) changes, unless the same change brings a new secret: the old one must not
-- follow the provider to another IdP. This marks the provider until a secret is entered again (or
-- `client_secret: null` says it has none); its sign-in is refused meanwhile (server/sso/signin/oidc.ts).
ALTER TABLE "sso_providers" ADD COLUMN "client_secret_dropped" BOOLEAN NOT NULL DEFAULT false;
