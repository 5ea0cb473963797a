import { defineConfig } from "@playwright/test";
import { BASE_URL } from "./e2e/constants";

/**
 * Journeys through the console against a production build (`next build` first; NEXT_DIST_DIR
 * selects a side build) served by e2e/serve.mjs on a fresh Postgres database, in Debian's
 * Chromium (Playwright cannot download its own browsers here).
 */
export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  forbidOnly: Boolean(process.env.CI),
  reporter: "list",
  use: {
    baseURL: BASE_URL,
    trace: "off",
    screenshot: "off",
    video: "off",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [
    // Runs first, while the database has no tenants yet.
    { name: "empty-database", testMatch: /empty-database\.spec\.ts/ },
    { name: "journeys", testIgnore: /empty-database\.spec\.ts/, dependencies: ["empty-database"] },
  ],
  webServer: {
    command: "node e2e/serve.mjs",
    url: `${BASE_URL}/login`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
  },
});
