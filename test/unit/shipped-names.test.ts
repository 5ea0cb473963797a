/**
 * One name for each thing in every text we ship (the console, the server's messages and OpenAPI
 * descriptions, README, docs/, the SDK): Microsoft's IdP is "Microsoft Entra ID" (or "Entra ID"),
 * never Azure AD or a bare "Entra"; and the signature header receivers are told to verify is
 * Standard Webhooks' `webhook-signature`, `X-Webhook-Signature` being the seed's legacy header.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** Generated from prisma/schema.prisma's comments; not a text anyone reads. */
const SKIPPED = [path.join("server", "db", "generated")];

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (SKIPPED.includes(relative)) return [];
    if (entry.isDirectory()) return filesUnder(relative);
    return /\.(tsx?|mjs|md)$/.test(entry.name) ? [relative] : [];
  });
}

const SHIPPED = [
  ...["app", "components", "server", "docs", path.join("sdk", "src")].flatMap(filesUnder),
  "README.md",
  path.join("sdk", "README.md"),
].filter((file) => statSync(path.join(ROOT, file)).isFile());

const texts = SHIPPED.map((file) => ({ file, lines: readFileSync(path.join(ROOT, file), "utf8").split("\n") }));

/** `file:line: text` of every line matching `pattern`. */
function linesMatching(pattern: RegExp, keep: (lines: string[], index: number) => boolean = () => true): string[] {
  return texts.flatMap(({ file, lines }) =>
    lines.flatMap((line, index) =>
      pattern.test(line) && keep(lines, index) ? [`${file}:${index + 1}: ${line.trim().slice(0, 160)}`] : [],
    ),
  );
}

describe("the texts we ship", () => {
  test("cover the console, the server, the docs and the SDK", () => {
    expect(SHIPPED).toEqual(
      expect.arrayContaining(["README.md", path.join("components", "sso", "provider-types.tsx"), path.join("sdk", "src", "schema.d.ts")]),
    );
  });

  test('call Microsoft\'s IdP "Microsoft Entra ID" (or "Entra ID"): never Azure AD, nor a bare "Entra"', () => {
    const stale = linesMatching(/Azure ?AD\b|Azure Active Directory|\bEntra\b(?! ID\b| admin center\b)/);
    expect(stale).toEqual([]);
  });

  test("recommend webhook-signature, naming X-Webhook-Signature only as the seed's legacy header", () => {
    // Within a few lines of each mention, the text says the header is the legacy one.
    const near = (lines: string[], index: number) => lines.slice(Math.max(0, index - 4), index + 5).join("\n");
    const unexplained = linesMatching(/X-Webhook-Signature/, (lines, index) => !/legacy/i.test(near(lines, index)));
    expect(unexplained).toEqual([]);
  });
});
