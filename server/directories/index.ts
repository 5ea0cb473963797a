/** What other domains may use of Directory Sync (besides its pure schemas.ts). */
export { createDirectory, directoryView, getDirectory, rotateDirectoryToken, rotateDirectoryTokenIn } from "./service.ts";
export { directoryStandingOf, type DirectoryStanding } from "./standing.ts";
