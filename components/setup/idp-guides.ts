import type { SetupIdp } from "@/server/setup-links/schemas";

/** One IdP's guided steps: where in its admin console each value goes, and what to bring back. */
export interface IdpGuide {
  name: string;
  protocol: "saml" | "oidc";
  /** One line per step, in the IdP's own words. */
  steps: string[];
  /** Where the IdP gives its metadata: a URL to copy, or a file to download. */
  metadata: string;
  /** What the IdP calls our ACS URL and entity ID (SAML), or the redirect URI (OIDC). */
  labels: { acs?: string; entity?: string; redirect?: string };
}

/** Attribute names our SAML profile reads first (server/sso/saml/profile.ts accepts the usual others too). */
export const SAML_ATTRIBUTES = [
  { name: "email", value: "The user's primary email (also the NameID, format EmailAddress)" },
  { name: "firstName", value: "Given name" },
  { name: "lastName", value: "Family name" },
];

export const IDP_GUIDES: Record<SetupIdp, IdpGuide> = {
  okta: {
    name: "Okta",
    protocol: "saml",
    steps: [
      "In the Okta Admin Console, go to Applications → Applications → Create App Integration, choose SAML 2.0.",
      "Name the app, then under Configure SAML paste the Single sign-on URL and the Audience URI (SP Entity ID) below.",
      "Set Name ID format to EmailAddress and Application username to Email; add the attribute statements below.",
      "Finish, assign the people or groups who should sign in, then open Sign On → Metadata URL.",
    ],
    metadata: "Copy the Metadata URL from the app's Sign On tab (or download the metadata file).",
    labels: { acs: "Single sign-on URL", entity: "Audience URI (SP Entity ID)" },
  },
  entra_id: {
    name: "Microsoft Entra ID",
    protocol: "saml",
    steps: [
      "In the Microsoft Entra admin center, go to Enterprise applications → New application → Create your own application (non-gallery).",
      "Open Single sign-on → SAML, edit Basic SAML Configuration: paste the Identifier (Entity ID) and the Reply URL below.",
      "Under Attributes & Claims, keep emailaddress, givenname and surname (the defaults work).",
      "Assign the users or groups who should sign in (Users and groups).",
    ],
    metadata: "Copy the App Federation Metadata Url from SAML Certificates (or download Federation Metadata XML).",
    labels: { acs: "Reply URL (Assertion Consumer Service URL)", entity: "Identifier (Entity ID)" },
  },
  google_workspace: {
    name: "Google Workspace",
    protocol: "saml",
    steps: [
      "In the Google Admin console, go to Apps → Web and mobile apps → Add app → Add custom SAML app.",
      "On Google Identity Provider details, choose Download metadata (GoogleIDPMetadata.xml), then Continue.",
      "On Service provider details, paste the ACS URL and the Entity ID below; Name ID format EMAIL, Name ID Primary email.",
      "Map First name → firstName and Last name → lastName, then turn the app ON for the users who should sign in.",
    ],
    metadata: "Upload the GoogleIDPMetadata.xml file you downloaded.",
    labels: { acs: "ACS URL", entity: "Entity ID" },
  },
  onelogin: {
    name: "OneLogin",
    protocol: "saml",
    steps: [
      "In OneLogin Administration, go to Applications → Add App, search for SAML Custom Connector (Advanced).",
      "Under Configuration, paste the ACS (Consumer) URL, the ACS URL Validator (the same URL, as a regex: escape dots) and the Audience (EntityID) below.",
      "Under Parameters, add email, firstName and lastName; set SAML nameID format to Email.",
      "Save, then assign the app to users or roles.",
    ],
    metadata: "Under More Actions → SAML Metadata, copy its URL (or download the file).",
    labels: { acs: "ACS (Consumer) URL", entity: "Audience (EntityID)" },
  },
  jumpcloud: {
    name: "JumpCloud",
    protocol: "saml",
    steps: [
      "In the JumpCloud Admin Portal, go to SSO Applications → Add New Application → Custom Application → Manage Single Sign-On (SSO), SAML.",
      "Paste the SP Entity ID and the ACS URL below; set SAMLSubject NameID to email.",
      "Add the user attributes email, firstName and lastName.",
      "Activate the application and bind it to the user groups who should sign in.",
    ],
    metadata: "Export the IdP metadata from the application's SSO tab and upload the file.",
    labels: { acs: "ACS URL", entity: "SP Entity ID" },
  },
  adfs: {
    name: "AD FS",
    protocol: "saml",
    steps: [
      "In AD FS Management, Relying Party Trusts → Add Relying Party Trust → Claims aware → Enter data manually.",
      "Enable SAML 2.0 WebSSO with the Relying party SAML 2.0 SSO service URL below; add the Relying party trust identifier below.",
      "Edit Claim Issuance Policy: send E-Mail-Address as email and as Name ID, Given-Name as firstName, Surname as lastName.",
    ],
    metadata: "Use https://<your AD FS host>/FederationMetadata/2007-06/FederationMetadata.xml, or upload that file.",
    labels: { acs: "Relying party SAML 2.0 SSO service URL", entity: "Relying party trust identifier" },
  },
  generic_saml: {
    name: "SAML 2.0",
    protocol: "saml",
    steps: [
      "In your identity provider, create a SAML 2.0 application for this service.",
      "Paste the ACS URL and the SP entity ID below (or give it our SP metadata URL); Name ID: the user's email.",
      "Send the attributes email, firstName and lastName, and assign the people who should sign in.",
    ],
    metadata: "Give us the IdP's metadata URL, or upload its metadata XML file.",
    labels: { acs: "Assertion Consumer Service (ACS) URL", entity: "SP entity ID" },
  },
  generic_oidc: {
    name: "OpenID Connect",
    protocol: "oidc",
    steps: [
      "In your identity provider, register a web application (confidential client, authorization code flow).",
      "Add the redirect URI below, with the scopes openid, email and profile.",
      "Copy the client ID and client secret it gives you.",
    ],
    metadata: "Give us the issuer's discovery URL (ending in /.well-known/openid-configuration) and the client ID and secret.",
    labels: { redirect: "Redirect URI" },
  },
};
