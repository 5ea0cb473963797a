import type { PlatformRole } from "@/server/auth/principal";

export const PLATFORM_ROLE_LABEL: Record<PlatformRole, string> = { operator: "Operator", support: "Support" };

/** The role select's options: "" stands for no platform role (a tenant user). */
export const PLATFORM_ROLE_OPTIONS: Array<{ value: PlatformRole | ""; label: string }> = [
  { value: "operator", label: "Operator" },
  { value: "support", label: "Support" },
  { value: "", label: "No platform role" },
];

export const PLATFORM_ROLE_HINT: Record<PlatformRole, string> = {
  operator: "Operators run the platform: they create tenants and platform users and can change any tenant.",
  support: "Support staff can see every tenant, its members, audit log and settings, but change nothing.",
};
