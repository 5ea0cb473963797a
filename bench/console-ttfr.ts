/**
 * Console time to first row: how long after navigation starts a page shows its first row, in
 * Chromium, signed in. Generic: any running app, any page, any row selector.
 *
 *   npx tsx bench/console-ttfr.ts --base http://127.0.0.1:3000 --email a@b.c --password … \
 *     --path /tenants/<id>/webhooks --selector '[data-testid="webhook-row"]' [--runs 15]
 *
 * Each run is a fresh navigation in the same signed-in context (the browser's HTTP cache warm,
 * as for someone moving about the console). The time is taken in the page: an init script
 * watches the DOM from the start of the document and records `performance.now()` (milliseconds
 * since navigation start) when the selector first matches. Prints the median, p90, min and max.
 */
import { parseArgs } from "node:util";
import os from "node:os";
import { chromium } from "@playwright/test";

const { values: flags } = parseArgs({
  options: {
    base: { type: "string" },
    email: { type: "string" },
    password: { type: "string" },
    path: { type: "string" },
    selector: { type: "string" },
    runs: { type: "string", default: "15" },
    warmup: { type: "string", default: "2" },
  },
});

for (const name of ["base", "email", "password", "path", "selector"] as const) {
  if (!flags[name]) throw new Error(`--${name} is required`);
}
const base = flags.base!;
const selector = flags.selector!;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
});
try {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } });
  await context.addInitScript((sel: string) => {
    const w = window as unknown as { __firstRowAt?: number };
    const check = () => {
      if (w.__firstRowAt === undefined && document.querySelector(sel)) w.__firstRowAt = performance.now();
      return w.__firstRowAt !== undefined;
    };
    const observer = new MutationObserver(() => {
      if (check()) observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true });
  }, selector);

  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Email").fill(flags.email!);
  await page.getByLabel("Password").fill(flags.password!);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));

  const times: number[] = [];
  const runs = Number(flags.runs);
  const warmup = Number(flags.warmup);
  for (let i = 0; i < warmup + runs; i++) {
    await page.goto(flags.path!, { waitUntil: "commit" });
    // Asked of the new document itself (a locator could still see the previous one's rows); if the
    // observer has not seen the row yet, the first poll (each animation frame) that does records it.
    const handle = await page.waitForFunction(
      (sel: string) => {
        const w = window as unknown as { __firstRowAt?: number };
        if (w.__firstRowAt === undefined && document.querySelector(sel)) w.__firstRowAt = performance.now();
        return w.__firstRowAt;
      },
      selector,
      { timeout: 30_000 },
    );
    const at = (await handle.jsonValue()) as number;
    if (i >= warmup) times.push(at);
  }
  times.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n);
  console.log(
    JSON.stringify({
      path: flags.path,
      selector,
      runs,
      median_ms: round(percentile(times, 50)),
      p90_ms: round(percentile(times, 90)),
      min_ms: round(times[0]!),
      max_ms: round(times[times.length - 1]!),
      load_average: os.loadavg().map((n) => Number(n.toFixed(2))),
    }),
  );
} finally {
  await browser.close();
}
