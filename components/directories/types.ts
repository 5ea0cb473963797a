/** What the console reads of the Directory Sync API: the server's own response types (server/directories/schemas.ts). */
export type {
  Directory,
  DirectoryGroup,
  DirectoryProvider,
  DirectoryRole,
  DirectoryUser,
  DirectoryWithToken,
  RoleMapping,
  ScimRequestEntry,
} from "@/server/directories/schemas";
