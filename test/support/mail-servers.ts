/** The shared setup of the Vitest files about mail (invitations, password reset). */
import { afterAll, afterEach, beforeAll } from "vitest";
import { clock } from "../../server/clock.ts";
import { startSmtp, type TestSmtp } from "./smtp.ts";
import { apiServer, type ApiServer } from "./api-server.ts";

/**
 * A loopback SMTP server, SMTP_URL pointing at it, and an API server started after (so it sends
 * there); both closed at the end, and the clock put back after each test (mail tests move it to
 * expire links; `realNow` is the clock's own). Read `api` and `smtp` inside tests, not when the file loads.
 */
export function mailServers(): { readonly api: ApiServer; readonly smtp: TestSmtp; readonly realNow: () => Date } {
  const realNow = clock.now;
  const servers = { realNow } as { api: ApiServer; smtp: TestSmtp; realNow: () => Date };
  beforeAll(async () => {
    servers.smtp = await startSmtp();
    process.env.SMTP_URL = servers.smtp.url;
  });
  // Registered first, so it runs last (Vitest runs after-hooks in reverse): the API closes before SMTP.
  afterAll(async () => {
    await servers.smtp?.close();
  });
  servers.api = apiServer();
  afterEach(() => {
    clock.now = realNow;
  });
  return servers;
}
