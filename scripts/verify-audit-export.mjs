#!/usr/bin/env node
/**
 * Proves offline that an audit export is complete and unaltered between signed digests.
 * The checks are in sdk/src/audit-chain.mjs (node:crypto only, shared with the SDK's
 * `verifyAuditExport`); this file reads the files and reports. Copy both files together to run it
 * anywhere on Node 20+.
 *
 *   node verify-audit-export.mjs --export audit.csv|audit.json --jwks jwks.json --digests digests.json [--digests more.json]
 *   node verify-audit-export.mjs --export objects/*.ndjson.gz --jwks jwks.json --digests digests.json
 *
 * The second form checks a log stream's copy (docs/log-streams.md): its S3 objects (or any
 * receiver's events written one JSON per line, .ndjson), in sequence order, repeats allowed when
 * identical (a batch sent again). Each flag takes the values after it, up to the next flag.
 *
 * --digests: the GET .../audit/digests response, a JSON array of digests or JWS strings, one
 * digest, or a text file with one JWS per line; repeatable. Only what the signatures cover is
 * trusted: each JWS is verified with its `kid`'s key from the JWKS, and its payload is used.
 * The digests, ordered, span sequences [first.from_sequence, last.to_sequence]; every event in
 * that span must be in the export exactly once, rehash to its `hash` (the database's
 * audit_event_hash(), in the form of the row's chain_version: 1 for events written before sources
 * were recorded, 2 since, covering the source), link to the one before by `prev_hash`, and every
 * digest's head_hash must be the hash of the event at its to_sequence. Adjacent digests must chain
 * by previous_digest_hash. The file must be in the export's order (newest first, ties by id).
 *
 * Exit 0 with one line "OK: …"; 1 with "FAILED at sequence N: …" (or what failed); 2 on bad input.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { AuditChainFailure, AuditInputError, parseDigests, verifyAuditExportText } from "../sdk/src/audit-chain.mjs";

function main(argv) {
  const args = { export: [], jwks: [], digests: [] };
  for (let i = 0, name = null; i < argv.length; i++) {
    if (argv[i].startsWith("--")) {
      name = argv[i].slice(2);
      if (!(name in args)) throw new AuditInputError(USAGE);
    } else if (name) args[name].push(argv[i]);
    else throw new AuditInputError(USAGE);
  }
  if (args.export.length === 0 || args.jwks.length !== 1 || args.digests.length === 0)
    throw new AuditInputError("give --export, --jwks and --digests");
  if (args.export.length > 1 && args.export.some((file) => !/\.ndjson(\.gz)?$/.test(file)))
    throw new AuditInputError("several --export files must all be a log stream's .ndjson or .ndjson.gz objects");

  const proved = verifyAuditExportText({
    exportText: args.export.map(readText).join("\n"),
    jwks: JSON.parse(readFileSync(args.jwks[0], "utf8")),
    digests: args.digests.flatMap((file) => parseDigests(readFileSync(file, "utf8"))),
  });
  const { tenantId, firstSequence, lastSequence, events, digests, kids, uncovered } = proved;
  return `OK: tenant ${tenantId}, sequences ${firstSequence}-${lastSequence} complete and unaltered (${events} events; ${digests} digests, keys ${kids.join(", ")}; ${uncovered} other rows in the export not covered)`;
}

const USAGE = "usage: verify-audit-export.mjs --export FILE... --jwks FILE --digests FILE...";

/** A file's text; a .gz (a log stream's S3 object) unzipped. */
function readText(file) {
  const bytes = readFileSync(file);
  return (file.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
}

try {
  console.log(main(process.argv.slice(2)));
} catch (error) {
  if (error instanceof AuditChainFailure) {
    console.error(`FAILED ${error.message}`);
    process.exit(1);
  }
  console.error(`error: ${error instanceof AuditInputError ? error.message : (error.message ?? error)}`);
  process.exit(2);
}
