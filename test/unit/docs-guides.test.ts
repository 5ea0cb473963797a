/**
 * README is what a newcomer needs; each area's chapter is a guide in docs/, linked from README and
 * served by the console at /docs/guides. Every guide is linked, every link lands on a file.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { guideSlugs, guideSource, guides } from "@/app/docs/guides/guides";
import { Markdown, headingId, linkTarget } from "@/components/docs-markdown";

const ROOT = path.resolve(import.meta.dirname, "../..");
const README = readFileSync(path.join(ROOT, "README.md"), "utf8");
const GUIDES = readdirSync(path.join(ROOT, "docs")).filter((file) => file.endsWith(".md"));

/** The targets of a Markdown text's links and images, outside code. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}

describe("README", () => {
  test("stays short: what the app is, running, testing and configuring it, and where to go next", () => {
    expect(README.split("\n").length).toBeLessThan(350);
    for (const heading of ["## Run it", "## Test it", "## Configuration", "## REST API", "## Where to go next"]) {
      expect(README).toContain(`\n${heading}\n`);
    }
  });

  test("links every guide of docs/, and every docs/*.md it links exists", () => {
    const linked = new Set(linksOf(README).flatMap((href) => /^docs\/([^/#]+\.md)(#.*)?$/.exec(href)?.[1] ?? []));
    expect([...linked].filter((file) => !GUIDES.includes(file))).toEqual([]);
    expect(GUIDES.filter((file) => !linked.has(file))).toEqual([]);
  });

  test("documents every variable of the server's environment (server/env.ts) in its Configuration table", () => {
    const table = README.slice(README.indexOf("## Configuration"), README.indexOf("## REST API"));
    const schema = readFileSync(path.join(ROOT, "server", "env.ts"), "utf8");
    const names = [...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1]).filter((name) => name !== "NODE_ENV");
    expect(names).toEqual(expect.arrayContaining(["DATABASE_URL", "SMTP_URL", "WEB_CONCURRENCY"]));
    expect(names.filter((name) => !table.includes(`| \`${name}\` |`))).toEqual([]);
  });
});

describe("links", () => {
  const texts = [
    { file: "README.md", text: README },
    ...GUIDES.map((file) => ({ file: path.join("docs", file), text: readFileSync(path.join(ROOT, "docs", file), "utf8") })),
  ];

  test("every relative link of README and docs/*.md lands on a file of the repository", () => {
    const broken = texts.flatMap(({ file, text }) =>
      linksOf(text)
        .filter((href) => !/^(https?:|mailto:|#)/.test(href))
        .filter((href) => !existsSync(path.join(ROOT, path.dirname(file), decodeURIComponent(href.split("#")[0]!))))
        .map((href) => `${file}: ${href}`),
    );
    expect(broken).toEqual([]);
  });

  test("every guide starts with its title, then what it is and a link back to README", () => {
    for (const { file, text } of texts.filter(({ file }) => file !== "README.md" && file !== path.join("docs", "architecture.md"))) {
      const [title, blank, intro] = text.split("\n");
      expect(title, file).toMatch(/^# \S/);
      expect(blank, file).toBe("");
      expect(intro, file).toContain("[README](../README.md)");
    }
  });
});

describe("the console's /docs/guides", () => {
  test("lists each docs/*.md, in README's order, with its title and summary", async () => {
    const list = await guides();
    expect(list.map((guide) => `${guide.slug}.md`).sort()).toEqual([...GUIDES].sort());
    expect(list[0]).toMatchObject({ slug: "console", title: "Finding your way in the console" });
    expect(list.find((guide) => guide.slug === "webhooks")?.summary).toMatch(/^Webhooks: signed deliveries/);
  });

  test("reads only the guides: any other slug is no guide", async () => {
    expect(await guideSlugs()).toContain("api");
    for (const slug of ["../README", "..%2FREADME", "api.md", "API", "benchmarks/memory", "screenshots", ""]) {
      expect(await guideSource(slug), slug).toBeNull();
    }
  });

  test("renders Markdown as escaped HTML, with guide links opening guides", () => {
    const html = renderToStaticMarkup(
      createElement(Markdown, {
        source: [
          "# Title `x`",
          "",
          "A <script>alert(1)</script> and **bold** [API](api.md#conventions), [tests](../test/README.md).",
          "",
          "- one",
          "  - nested",
          "",
          "| A | B |",
          "|---|---|",
          "| `a\\|b` | c |",
          "",
          "```sh",
          "echo <b>",
          "```",
        ].join("\n"),
        guides: ["api"],
      }),
    );
    expect(html).toContain('<h1 id="title-x"');
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>");
    expect(html).toContain('href="/docs/guides/api#conventions"');
    expect(html).not.toContain("../test/README.md");
    expect(html).toMatch(/<li>one<ul[^>]*><li>nested<\/li><\/ul><\/li>/);
    expect(html).toMatch(/<td[^>]*><code[^>]*>a\|b<\/code><\/td>/);
    expect(html).toContain("echo &lt;b&gt;");
  });

  test("heading ids and link targets are GitHub's and the console's", () => {
    expect(headingId("OAuth broker (sign-in for the platform's own apps)")).toBe("oauth-broker-sign-in-for-the-platforms-own-apps");
    expect(linkTarget("https://example.com", [])).toBe("https://example.com");
    expect(linkTarget("../README.md", [])).toBe("/docs/guides");
    expect(linkTarget("sso.md", ["sso"])).toBe("/docs/guides/sso");
    expect(linkTarget("benchmarks/memory.md", ["sso"])).toBeNull();
    expect(linkTarget("javascript:alert(1)", ["sso"])).toBeNull();
  });
});
