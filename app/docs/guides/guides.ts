import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/** docs/ of the project: the server runs from the project directory (see docs/operations.md). */
const DOCS_DIR = path.join(process.cwd(), "docs");

/** The order of README's "Where to go next"; a guide not named here comes after, by name. */
const ORDER = [
  "console",
  "api",
  "security",
  "onboarding",
  "sso",
  "directory-sync",
  "webhooks",
  "events",
  "log-streams",
  "audit-log",
  "operations",
  "development",
  "architecture",
  "changelog",
];

export interface Guide {
  slug: string;
  title: string;
  summary: string;
}

/** The guides: every docs/<slug>.md, slugs made of lower-case letters, digits and dashes only. */
export async function guideSlugs(): Promise<string[]> {
  const files = await readdir(DOCS_DIR);
  const slugs = files.flatMap((file) => /^([a-z0-9-]+)\.md$/.exec(file)?.[1] ?? []);
  const rank = (slug: string) => (ORDER.includes(slug) ? ORDER.indexOf(slug) : ORDER.length);
  return slugs.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** A guide's Markdown, or null when `slug` is not one of the guides (nothing else is ever read). */
export async function guideSource(slug: string): Promise<string | null> {
  const slugs = await guideSlugs();
  if (!slugs.includes(slug)) return null;
  return readFile(path.join(DOCS_DIR, `${slug}.md`), "utf8");
}

/** Its title (the first heading) and summary (the first paragraph, without the link back to README). */
export function describe(slug: string, source: string): Guide {
  const lines = source.split("\n");
  const title = lines.find((line) => line.startsWith("# "))?.slice(2) ?? slug;
  const start = lines.findIndex((line, n) => n > 0 && line.trim() !== "" && !line.startsWith("#"));
  const rest = start === -1 ? [] : lines.slice(start);
  const end = rest.findIndex((line) => line.trim() === "" || line.startsWith("#"));
  const paragraph = (end === -1 ? rest : rest.slice(0, end)).map((line) => line.trim());
  const summary = paragraph
    .join(" ")
    .replace(/\s*Back to the \[README\]\(\.\.\/README\.md\)\.$/, "")
    .replace(/[`*]/g, "");
  return { slug, title, summary };
}

export async function guides(): Promise<Guide[]> {
  const slugs = await guideSlugs();
  return Promise.all(slugs.map(async (slug) => describe(slug, (await guideSource(slug))!)));
}
