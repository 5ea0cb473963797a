/**
 * docs/architecture.md stays a true map: every folder of server/ is in it, in the layer lint
 * enforces (SERVER_LAYERS in eslint.config.mjs), and it names no layer folder lint does not know;
 * every file at server/'s root is in the ground row; every domain has its front door (index.ts);
 * and the entry points pages may call are named.
 */
import { readdirSync, readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { SERVER_ENTRY_POINTS, SERVER_LAYERS } from "../../eslint.config.mjs";

const doc = readFileSync(new URL("../../docs/architecture.md", import.meta.url), "utf8");
const folders = readdirSync(new URL("../../server/", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const rootFiles = readdirSync(new URL("../../server/", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
  .map((entry) => entry.name);
const layerOf = new Map(Object.entries(SERVER_LAYERS).flatMap(([layer, names]) => names.map((name) => [name, layer] as const)));

test("every folder of server/ is described in docs/architecture.md", () => {
  const missing = folders.filter((name) => !doc.includes(`\`server/${name}/\``));
  expect(missing, "add these folders to docs/architecture.md").toEqual([]);
});

test("every folder of server/ belongs to one layer that lint enforces", () => {
  const unplaced = folders.filter((name) => !layerOf.has(name));
  expect(unplaced, "add these folders to a layer in eslint.config.mjs (SERVER_LAYERS)").toEqual([]);
  const all = Object.values(SERVER_LAYERS).flat();
  expect(new Set(all).size).toBe(all.length);
});

test("the layer table of docs/architecture.md puts each folder where lint does", () => {
  const table = doc.slice(doc.indexOf("| layer |"), doc.indexOf("\n\n", doc.indexOf("| layer |")));
  const rows = table.split("\n").slice(2);
  const documented = new Map<string, string>();
  for (const row of rows) {
    const [, layer, cells] = row.split("|").map((cell) => cell.trim());
    for (const [, name] of cells!.matchAll(/`server\/([a-z-]+)\/`/g)) documented.set(name!, layer!);
  }
  const names: Record<string, string> = {
    platform: "platform",
    trpc: "tRPC builders",
    domains: "domains",
    app: "app (composition)",
    edges: "edges",
  };
  for (const [name, layer] of layerOf) expect([name, documented.get(name)]).toEqual([name, names[layer]]);
  expect([...documented.keys()].sort()).toEqual([...layerOf.keys()].sort());
});

test("every domain has a front door, index.ts, that only hands on what other domains may use", () => {
  for (const domain of SERVER_LAYERS.domains) {
    const door = readFileSync(new URL(`../../server/${domain}/index.ts`, import.meta.url), "utf8");
    const code = door
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/\s+/g, " ")
      .trim();
    const statements = code
      .split(";")
      .map((s) => s.trim())
      .filter(Boolean);
    const handsOn = (s: string) => s === "export {}" || /^export (?:type )?\{[^}]*\} from "\.\/[\w./-]+\.ts"$/.test(s);
    expect([domain, statements.filter((s) => !handsOn(s))]).toEqual([domain, []]);
  }
});

test("the ground row of the layer table names every file at server/'s root", () => {
  const row = doc.split("\n").find((line) => line.startsWith("| ground |")) ?? "";
  const missing = rootFiles.filter((name) => !row.includes(`\`${name}\``));
  expect(missing, "add these files to the ground row of docs/architecture.md").toEqual([]);
});

test("docs/architecture.md names every entry point a page may call (SERVER_ENTRY_POINTS)", () => {
  const missing = SERVER_ENTRY_POINTS.filter((entry) => !doc.includes(`\`${entry}.ts\``));
  expect(missing, "add these entry points to docs/architecture.md").toEqual([]);
});
