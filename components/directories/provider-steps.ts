/**
 * What to do in each identity provider's admin console to point its SCIM provisioning at a
 * directory: where the SCIM base URL and the token go, and which provisioning features to turn on.
 * Pure data (no React), so the directory's page and the setup-link flow show the same steps.
 */
import { DIRECTORY_PROVIDER_NAMES, type DirectoryProvider } from "@/server/directories/schemas";

export interface ProviderSteps {
  name: string;
  /** What the IdP calls the two values we hand it. */
  labels: { url: string; token: string };
  /** One line per step, in the IdP's own words, in order. */
  steps: string[];
  /** The provisioning features to switch on. */
  features: string[];
  /** Something the admin should know before starting (a limit of the IdP), if any. */
  note?: string;
}

export const PROVIDER_STEPS: Record<DirectoryProvider, ProviderSteps> = {
  okta: {
    name: "Okta",
    labels: { url: "SCIM connector base URL", token: "Bearer token" },
    steps: [
      "In the Okta Admin Console, open the app you sign in with (Applications → Applications), then General → App Settings → Edit, tick Enable SCIM provisioning and save.",
      "Open Provisioning → Integration → Edit. Paste the SCIM connector base URL and set Unique identifier field for users to userName.",
      "Tick Push New Users, Push Profile Updates and Push Groups; set Authentication Mode to HTTP Header and paste the token as the Bearer token.",
      "Test Connector Configuration, then Save.",
      "Under Provisioning → To App → Edit, turn on the features and save.",
      "Assign the people (Assignments) and push the groups your role mappings name (Push Groups).",
    ],
    features: ["Create Users", "Update User Attributes", "Deactivate Users", "Push Groups"],
  },
  entra_id: {
    name: "Microsoft Entra ID",
    labels: { url: "Tenant URL", token: "Secret Token" },
    steps: [
      "In the Microsoft Entra admin center, open Enterprise applications and the app you sign in with (or New application → Create your own application, non-gallery).",
      "Open Provisioning → Get started (or New configuration) and set Provisioning Mode to Automatic.",
      "Under Admin Credentials, paste the Tenant URL and the Secret Token, then Test Connection and Save.",
      "Under Mappings, keep Provision Microsoft Entra ID Users and Provision Microsoft Entra ID Groups enabled.",
      "Under Settings, set Scope to Sync only assigned users and groups; assign them under Users and groups.",
      "Set Provisioning Status to On. Entra ID syncs every 40 minutes or so; Provision on demand tries one person at once.",
    ],
    features: ["Provision users", "Provision groups", "Sync only assigned users and groups"],
  },
  google_workspace: {
    name: "Google Workspace",
    labels: { url: "Endpoint URL", token: "Access token" },
    steps: [
      "In the Google Admin console, go to Apps → Web and mobile apps and open the app.",
      "Open Auto-provisioning → Set up auto-provisioning, paste the Access token, then the Endpoint URL.",
      "Keep the default attribute mapping (primary email as userName), and pick the groups whose members are provisioned.",
      "Choose Deprovisioning: when a user is suspended or removed, deactivate them here. Finish, then turn Auto-provisioning on.",
    ],
    features: ["Auto-provisioning", "Deprovisioning on suspend and delete", "Provisioning scope: the groups to sync"],
    note: "Google Workspace offers auto-provisioning only for apps from its catalogue, not for custom SAML apps. Without it, use another SCIM client (or a generic directory) fed from Google.",
  },
  onelogin: {
    name: "OneLogin",
    labels: { url: "SCIM Base URL", token: "SCIM Bearer Token" },
    steps: [
      "In OneLogin Administration, go to Applications → Add App and pick SCIM Provisioner with SAML (SCIM v2 Enterprise).",
      "Under Configuration, paste the SCIM Base URL and the SCIM Bearer Token, then Enable the API Connection.",
      "Under Provisioning, tick Enable provisioning and set deleted and suspended users to Delete and Suspend.",
      "Under Parameters, open Groups and tick Include in User Provisioning; save.",
      "Give people the app through roles (Users → Roles); they are pushed as you assign them.",
    ],
    features: ["Enable provisioning", "Create, update, suspend and delete users", "Groups: Include in User Provisioning"],
  },
  jumpcloud: {
    name: "JumpCloud",
    labels: { url: "Base URL", token: "Token Key" },
    steps: [
      "In the JumpCloud Admin Portal, open SSO Applications and the app you sign in with (or add a Custom Application).",
      "Open Identity Management, choose SCIM 2.0 as the API type, and paste the Base URL and the Token Key.",
      "Test Connection, then turn on Group Management and Activate.",
      "Under User Groups, bind the groups whose members should be provisioned.",
    ],
    features: ["User provisioning and deprovisioning", "Group Management"],
  },
  generic: {
    name: "another SCIM client",
    labels: { url: "SCIM base URL", token: "Bearer token" },
    steps: [
      "Point your SCIM 2.0 client at the SCIM base URL; it serves /Users, /Groups and the discovery endpoints (/ServiceProviderConfig, /ResourceTypes, /Schemas).",
      "Send the token as Authorization: Bearer <token> with Content-Type application/scim+json.",
      "Create users with a unique userName; set active to false to deprovision someone, and push groups with their members.",
    ],
    features: ["Users: create, update, deactivate, delete", "Groups with members", "PATCH and filters (userName eq …)"],
  },
};

/** The provider's name as the console shows it ("Microsoft Entra ID", "Other SCIM 2.0 client"). */
export function providerLabel(provider: DirectoryProvider): string {
  return DIRECTORY_PROVIDER_NAMES[provider];
}
