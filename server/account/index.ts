/** What other domains may use of the console account (besides its pure schemas.ts). */
export type { ConsoleUser } from "./session.ts";
