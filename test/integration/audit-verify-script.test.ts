/**
 * scripts/verify-audit-export.mjs run as an auditor would: a child process on files downloaded
 * over HTTP (an export, the digests, the JWKS), untouched and then with one row changed, removed
 * or moved.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parse } from "csv-parse/sync";
import { apiServer } from "../support/api-server.ts";
import { client, tenantWithMembers } from "../support/fixtures.ts";
import { database } from "../../server/db/client.ts";
import { exportAudit } from "../../server/http/audit-export.ts";
import { createRestContext } from "../../server/trpc/create-context.ts";

const run = promisify(execFile);
const api = apiServer();
let dir: string;
let digestA: { to_sequence: number };
let digestB: { to_sequence: number };
const files = { csv: "", keysetCsv: "", json: "", digests: "", jwks: "", a: "", b: "" };

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "audit-verify-"));
  const world = await tenantWithMembers();
  const admin = client(api.url, world.admin.token);
  const base = `/api/v1/tenants/${world.tenant.id}/audit`;
  const append = async (n: number, from: number) => {
    const res = await admin.post(`${base}/batch`, {
      events: Array.from({ length: n }, (_, i) => ({
        event_type: "invoice.paid",
        actor: { id: `billing-${from + i}`, email: "billing@example.com" },
        // Some with a named target (one a formula the CSV guards), some without: both must rehash.
        ...((from + i) % 3 === 0
          ? { target: { type: "invoice", id: `inv-${from + i}`, name: (from + i) % 2 ? `Invoice ${from + i}` : `=Invoice(${from + i})` } }
          : {}),
        details: { n: from + i },
      })),
    });
    expect(res.status, res.text).toBe(201);
  };
  await append(3, 1);
  digestA = (await admin.post(`${base}/digests`)).json;
  await append(4, 4);
  // Cells the CSV guards or quotes, an empty string beside NULLs, and jsonb digits JavaScript would lose.
  const { sql } = await database();
  await sql.query(
    `INSERT INTO audit_events (tenant_id, event_type, actor_id, actor_email, ip_address, user_agent, target_type, target_id, details)
     VALUES ($1::uuid, 'invoice.refunded', '''=already quoted', '', NULL, '=cmd|calc', '+thing', '@t', '{"amount": 1.50, "big": 12345678901234567890, "nested": {"zz": [1, "x\\n\\"q\\""], "a": null}, "ü": "é€"}'::jsonb),
            ($1::uuid, 'invoice.refunded', 'plain', NULL, '10.0.0.1', 'ua, with comma', NULL, NULL, '{}'::jsonb)`,
    [world.tenant.id],
  );
  await append(3, 8);
  digestB = (await admin.post(`${base}/digests`)).json;
  await append(2, 11); // after the last digest: in the export, outside what it proves

  const download = async (url: string) => {
    const res = await admin.get(url);
    expect(res.status, res.text).toBe(200);
    return res.text;
  };
  const save = (name: string, text: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  files.csv = save("audit.csv", await download(`${base}/export?format=csv`));
  // The CSV as written without COPY (the embedded database, or when COPY slots are busy).
  const req = new Request(`${api.url}${base}/export?format=csv`, { headers: { authorization: `Bearer ${world.admin.token}` } });
  const ctx = await createRestContext(req, "keyset-csv");
  files.keysetCsv = save(
    "keyset.csv",
    await (await exportAudit(req, world.tenant.id, async () => ({ ...ctx, db: { ...ctx.db, copyOut: undefined } }), "keyset-csv")).text(),
  );
  files.json = save("audit.json", await download(`${base}/export?format=json`));
  files.digests = save("digests.json", await download(`${base}/digests`));
  files.jwks = save("jwks.json", await download("/api/v1/audit/jwks.json"));
  files.a = save("a.json", JSON.stringify(digestA));
  files.b = save("b.json", JSON.stringify(digestB));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

async function verify(exportFile: string, digests = [files.digests]) {
  const args = [
    "scripts/verify-audit-export.mjs",
    "--export",
    exportFile,
    "--jwks",
    files.jwks,
    ...digests.flatMap((d) => ["--digests", d]),
  ];
  try {
    const { stdout } = await run(process.execPath, args);
    return { code: 0, out: stdout.trim() };
  } catch (error) {
    const { code, stderr } = error as { code: number; stderr: string };
    return { code, out: stderr.trim() };
  }
}

/** The export's CSV lines (every record is one line here) with each line's sequence. */
function csvLines() {
  const lines = readFileSync(files.csv, "utf8").split("\n");
  const column = lines[0]!.split(",").indexOf("sequence");
  return lines.map((line, i) => ({ line, sequence: i === 0 || !line ? null : Number((parse(line) as string[][])[0]![column]) }));
}

function tampered(name: string, lines: string[]) {
  const file = path.join(dir, name);
  writeFileSync(file, lines.join("\n"));
  return file;
}

describe("proving an export between two digests", () => {
  test("an untouched CSV export passes", async () => {
    const result = await verify(files.csv);
    expect(result).toEqual({
      code: 0,
      out: expect.stringMatching(new RegExp(`^OK: .* sequences 1-${digestB.to_sequence} complete and unaltered`)),
    });
  });

  test("an untouched CSV export written without COPY passes", async () => {
    expect(readFileSync(files.keysetCsv, "utf8")).toContain(',"",');
    expect((await verify(files.keysetCsv)).out).toMatch(/^OK: /);
  });

  test("an untouched JSON export passes, with two digest files given apart", async () => {
    expect((await verify(files.json, [files.a, files.b])).code).toBe(0);
    expect((await verify(files.json)).out).toMatch(/^OK: /);
  });

  test("one row changed is caught at its sequence (CSV)", async () => {
    const target = digestA.to_sequence + 2;
    const lines = csvLines().map(({ line, sequence }) => (sequence === target ? line.replace(/billing-\d+/, "billing-999") : line));
    expect(lines.join("\n")).toContain("billing-999");
    const result = await verify(tampered("changed.csv", lines));
    expect(result.code).toBe(1);
    expect(result.out).toBe(`FAILED at sequence ${target}: the row's fields do not hash to its hash (altered)`);
  });

  test("a target's name changed is caught at its sequence (CSV and JSON)", async () => {
    const named = JSON.parse(readFileSync(files.json, "utf8")).filter(
      (e: { sequence: number; target: { name: string | null } | null }) => e.target?.name && e.sequence <= digestB.to_sequence,
    );
    expect(named.map((e: { target: { name: string } }) => e.target.name)).toEqual(expect.arrayContaining(["Invoice 9", "=Invoice(6)"]));
    const csvResult = await verify(tampered("renamed.csv", [readFileSync(files.csv, "utf8").replace(",Invoice 9,", ",Invoice 99,")]));
    const sequence = named.find((e: { target: { name: string } }) => e.target.name === "Invoice 9").sequence;
    expect(csvResult).toEqual({ code: 1, out: `FAILED at sequence ${sequence}: the row's fields do not hash to its hash (altered)` });
    const jsonResult = await verify(
      tampered("renamed.json", [readFileSync(files.json, "utf8").replace('"name":"Invoice 9"', '"name":"Invoice 99"')]),
    );
    expect(jsonResult).toEqual({ code: 1, out: `FAILED at sequence ${sequence}: the row's fields do not hash to its hash (altered)` });
  });

  test("one row changed is caught at its sequence (JSON: jsonb's 1.50 written as 1.5)", async () => {
    const text = readFileSync(files.json, "utf8");
    expect(text).toContain('"amount": 1.50');
    const row = JSON.parse(text).find((e: { details: { amount?: number } }) => e.details.amount !== undefined);
    const result = await verify(tampered("changed.json", [text.replace('"amount": 1.50', '"amount": 1.5')]));
    expect(result).toEqual({ code: 1, out: `FAILED at sequence ${row.sequence}: the row's fields do not hash to its hash (altered)` });
  });

  test("one row removed is caught at its sequence", async () => {
    const target = digestA.to_sequence + 3;
    const lines = csvLines()
      .filter(({ sequence }) => sequence !== target)
      .map(({ line }) => line);
    expect(await verify(tampered("removed.csv", lines))).toEqual({
      code: 1,
      out: `FAILED at sequence ${target}: the event is missing from the export`,
    });
  });

  test("one row reordered is caught at its sequence", async () => {
    const rows = csvLines();
    const at = rows.findIndex(({ sequence }) => sequence === digestA.to_sequence + 2);
    const lines = rows.map(({ line }) => line);
    [lines[at], lines[at + 1]] = [lines[at + 1]!, lines[at]!];
    const result = await verify(tampered("reordered.csv", lines));
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/^FAILED at sequence \d+: the row is out of the export's order/);
    expect([rows[at]!.sequence, rows[at + 1]!.sequence]).toContain(Number(/sequence (\d+)/.exec(result.out)![1]));
  });

  test("a digest whose payload was edited does not verify", async () => {
    const [h, p, s] = readFileSync(files.b, "utf8")
      .match(/"jws":"([^"]+)"/)![1]!
      .split(".");
    const payload = JSON.parse(Buffer.from(p!, "base64url").toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...payload, to_sequence: payload.to_sequence - 1 })).toString("base64url")}.${s}`;
    const result = await verify(files.csv, [tampered("forged.txt", [forged])]);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/^FAILED a digest's signature does not verify/);
  });
});
