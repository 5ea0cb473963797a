/**
 * Time to first row of a console page, in Debian's Chromium: navigation start → the first element
 * matching a row selector is in the document and visible. Generic: any page, any row selector, one
 * or more running servers (e.g. a build of main and a build of a branch), measured alternately in
 * the same run so both see the same machine load.
 *
 *   npx tsx bench/console-ttfr.ts --target after=http://127.0.0.1:3330/tenants/<id>/audit \
 *     [--target before=http://127.0.0.1:3340/tenants/<id>/audit] --selector '[data-testid=audit-row]' \
 *     --email operator@example.com --password '…' [--runs 15] [--warmup 1] [--json]
 *   (or one target as --base http://127.0.0.1:3000 --path /tenants/<id>/webhooks)
 *
 * Signs in once per origin through /login (the Email and Password fields, "Sign in"), each origin
 * in its own browser context, then loads each target `--runs` times (plus one warm-up load that is
 * not counted) in that context: HTTP cache and session warm, as for someone moving around the
 * console. The time is
 * read in the page (performance.now(), whose origin is the navigation start) by a MutationObserver
 * installed before any of the page's own scripts, so it does not include Playwright's round trips.
 * Prints median, quartiles, min and max per target, with the load average before and after.
 */
import os from "node:os";
import { parseArgs } from "node:util";
import { chromium, expect, type BrowserContext } from "@playwright/test";

const { values: flags } = parseArgs({
  options: {
    target: { type: "string", multiple: true },
    // One target as base URL + path (the form the webhooks pages' runs in docs/benchmarks/console.md used).
    base: { type: "string" },
    path: { type: "string" },
    warmup: { type: "string", default: "1" },
    selector: { type: "string" },
    email: { type: "string" },
    password: { type: "string" },
    runs: { type: "string", default: "15" },
    timeout: { type: "string", default: "30000" },
    json: { type: "boolean", default: false },
  },
});

function usage(message: string): never {
  console.error(`bench/console-ttfr.ts: ${message}`);
  console.error(
    "usage: --target [label=]<url> (repeatable) | --base <origin> --path <path>, --selector <css> --email <email> --password <password> [--runs 15] [--warmup 1] [--timeout 30000] [--json]",
  );
  process.exit(2);
}

if (flags.base && flags.path) (flags.target ??= []).push(`${flags.path}=${new URL(flags.path, flags.base)}`);
if (!flags.target?.length) usage("at least one --target (or --base and --path) is required");
if (!flags.selector) usage("--selector is required");
if (!flags.email || !flags.password) usage("--email and --password are required");
const RUNS = Number(flags.runs);
const TIMEOUT = Number(flags.timeout);
if (!Number.isInteger(RUNS) || RUNS < 1) usage("--runs must be a positive integer");

interface Target {
  label: string;
  url: URL;
}

const targets: Target[] = flags.target.map((spec, index) => {
  const match = /^([\w./{}-]+)=(https?:\/\/.+)$/.exec(spec);
  const [label, url] = match ? [match[1]!, match[2]!] : [`target${index + 1}`, spec];
  try {
    return { label, url: new URL(url) };
  } catch {
    return usage(`not a URL: ${url}`);
  }
});

/**
 * Installed in every document before its scripts: records when the first row is visible. A string,
 * not a function: tsx (esbuild keepNames) would wrap a function's inner names in a `__name` helper
 * the page does not have.
 */
const observeFirstRow = (selector: string) => `(() => {
  const selector = ${JSON.stringify(selector)};
  const check = () => {
    if (window.__firstRowAt !== undefined) return;
    const row = document.querySelector(selector);
    if (row && row.checkVisibility()) {
      window.__firstRowAt = performance.now();
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true, attributes: true });
  check();
})();`;

async function signIn(context: BrowserContext, origin: string): Promise<void> {
  const page = await context.newPage();
  try {
    await page.goto(`${origin}/login`);
    const submit = page.getByRole("button", { name: "Sign in" });
    // Enabled only once React has hydrated the form (a native submit would lose the credentials).
    await expect(submit).toBeEnabled({ timeout: TIMEOUT });
    await page.getByLabel("Email").fill(flags.email!);
    await page.getByLabel("Password").fill(flags.password!);
    await submit.click();
    await page.waitForURL((url) => !url.pathname.startsWith("/login"), { timeout: TIMEOUT });
  } finally {
    await page.close();
  }
}

async function measureOnce(context: BrowserContext, target: Target): Promise<number> {
  const page = await context.newPage();
  try {
    await page.goto(target.url.toString(), { waitUntil: "commit", timeout: TIMEOUT });
    await page.locator(flags.selector!).first().waitFor({ state: "visible", timeout: TIMEOUT });
    const at = await page.waitForFunction(() => (window as unknown as { __firstRowAt?: number }).__firstRowAt, null, {
      timeout: TIMEOUT,
    });
    const landed = new URL(page.url());
    if (landed.pathname !== target.url.pathname)
      throw new Error(`${target.label}: landed on ${landed.pathname}, not ${target.url.pathname}`);
    return (await at.jsonValue()) as number;
  } finally {
    await page.close();
  }
}

const quantile = (sorted: number[], q: number) => {
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
};

const loadBefore = os.loadavg();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});
const samples = new Map<string, number[]>(targets.map((t) => [t.label, []]));
try {
  // One context (cookie jar) per origin: cookies ignore the port, so two servers on one host would
  // overwrite each other's session cookie in a shared jar.
  const contexts = new Map<string, BrowserContext>();
  for (const origin of new Set(targets.map((t) => t.url.origin))) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript({ content: observeFirstRow(flags.selector!) });
    await signIn(context, origin);
    contexts.set(origin, context);
  }
  const measure = (target: Target) => measureOnce(contexts.get(target.url.origin)!, target);
  // Warm-up loads, not counted: compiled routes, caches.
  for (let i = 0; i < Number(flags.warmup); i++) for (const target of targets) await measure(target);
  for (let run = 0; run < RUNS; run++) {
    // Alternate the order so neither target always runs right after the other.
    const order = run % 2 === 0 ? targets : [...targets].reverse();
    for (const target of order) samples.get(target.label)!.push(await measure(target));
  }
} finally {
  await browser.close();
}
const loadAfter = os.loadavg();

const results = targets.map((target) => {
  const sorted = [...samples.get(target.label)!].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n);
  return {
    label: target.label,
    url: target.url.toString(),
    runs: sorted.length,
    median_ms: round(quantile(sorted, 0.5)),
    p25_ms: round(quantile(sorted, 0.25)),
    p75_ms: round(quantile(sorted, 0.75)),
    p90_ms: round(quantile(sorted, 0.9)),
    min_ms: round(sorted[0]!),
    max_ms: round(sorted.at(-1)!),
  };
});
const load = (l: number[]) => l.map((n) => n.toFixed(2)).join(" ");

if (flags.json) {
  console.log(
    JSON.stringify({ selector: flags.selector, loadavg_before: loadBefore, loadavg_after: loadAfter, cpus: os.cpus().length, results }),
  );
} else {
  console.log(`time to first row (${flags.selector}), ${RUNS} loads per target after one warm-up, ${os.cpus().length} CPUs`);
  console.log(`load average before: ${load(loadBefore)}   after: ${load(loadAfter)}`);
  console.log("| target | median | p25 | p75 | p90 | min | max |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const r of results)
    console.log(`| ${r.label} | ${r.median_ms} ms | ${r.p25_ms} ms | ${r.p75_ms} ms | ${r.p90_ms} ms | ${r.min_ms} ms | ${r.max_ms} ms |`);
}
