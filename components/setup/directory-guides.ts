import type { DirectoryProvider } from "@/server/directories/schemas";

/** One IdP's SCIM provisioning steps: where the SCIM base URL and the token go, what to turn on. */
export interface DirectoryGuide {
  /** One line per step, in the IdP's own words. */
  steps: string[];
  /** What the IdP calls the SCIM base URL and the token. */
  labels: { url: string; token: string };
}

export const DIRECTORY_GUIDES: Record<DirectoryProvider, DirectoryGuide> = {
  okta: {
    steps: [
      "In the Okta Admin Console, open your app (the SAML app used for SSO, or a new SCIM 2.0 Test App) → General → App Settings → Edit, and enable SCIM provisioning.",
      "On the Provisioning tab → Integration: paste the SCIM connector base URL below, set Unique identifier field for users to userName, and tick Push New Users, Push Profile Updates and Push Groups.",
      "Authentication Mode: HTTP Header; paste the token below as the Bearer token. Test Connector Configuration, then Save.",
      "Provisioning → To App: enable Create Users, Update User Attributes and Deactivate Users.",
      "Assign people or groups on the Assignments tab; push groups on the Push Groups tab.",
    ],
    labels: { url: "SCIM connector base URL", token: "Bearer token (HTTP Header)" },
  },
  entra_id: {
    steps: [
      "In the Entra admin center, go to Enterprise applications → your app (or New application → Create your own application, non-gallery) → Provisioning.",
      "Set Provisioning Mode to Automatic. Under Admin Credentials paste the Tenant URL and the Secret Token below, then Test Connection and Save.",
      "Under Mappings, keep Provision Microsoft Entra ID Users and Groups enabled (userPrincipalName → userName).",
      "Assign users and groups under Users and groups, then Start provisioning. Entra ID syncs every 40 minutes; Provision on demand pushes one person now.",
    ],
    labels: { url: "Tenant URL", token: "Secret Token" },
  },
  google_workspace: {
    steps: [
      "Google Workspace provisions through a custom SAML app only for supported apps; for any other app use a SCIM bridge (such as a third-party sync tool) pointed at the values below.",
      "Paste the SCIM base URL as the endpoint and the token as the Bearer token, map primaryEmail to userName, and choose the organisational units or groups to sync.",
      "Start the sync; the first users appear below within a minute of its first run.",
    ],
    labels: { url: "SCIM endpoint URL", token: "Bearer token" },
  },
  onelogin: {
    steps: [
      "In OneLogin Administration, go to Applications → Add App, search for SCIM Provisioner with SAML (SCIM v2 Enterprise), and save it.",
      "On Configuration: paste the SCIM Base URL and the SCIM Bearer Token below; set SCIM JSON Template to the default with userName = email. Enable the API Connection.",
      "On Provisioning: tick Enable provisioning, and choose what happens when a user is deleted or suspended (Delete / Suspend).",
      "Assign users (Users → Applications) or rules; map roles to groups under Parameters → Groups if you push groups.",
    ],
    labels: { url: "SCIM Base URL", token: "SCIM Bearer Token" },
  },
  jumpcloud: {
    steps: [
      "In the JumpCloud Admin Portal, go to SSO Applications → your app (or Add New Application → Custom SAML App) → Identity Management.",
      "Choose SCIM 2.0, paste the Base URL and the Token Key below, and Test Connection; then Activate.",
      "Turn on Group Management if you push groups, then bind user groups to the application on its User Groups tab.",
    ],
    labels: { url: "Base URL", token: "Token Key" },
  },
  generic: {
    steps: [
      "In your identity provider's provisioning (SCIM 2.0) settings, paste the SCIM base URL and the bearer token below.",
      "Use userName as the unique identifier (an email address is best), and send emails, name and active.",
      "Turn on create, update and deactivate of users, and group push if you want groups to map to roles.",
    ],
    labels: { url: "SCIM base URL", token: "Bearer token" },
  },
};
