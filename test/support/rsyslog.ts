/**
 * Debian's rsyslogd as a real syslog receiver for the syslog sink's tests: a non-daemon child
 * (`-n -f conf -i pidfile`) with its own config and work dir in a temp dir, imtcp on a port the
 * kernel picks (written to a file by `listenPortFileName`), with TLS through the gtls driver
 * (StreamDriver.Mode 1, AuthMode anon) and a CA and server certificate made with the openssl CLI
 * at test time. Every message goes to a file in RSYSLOG_SyslogProtocol23Format, which keeps
 * STRUCTURED-DATA and MSG as received; `messages()` parses that file back.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { until } from "./until.ts";

const run = promisify(execFile);
export const RSYSLOGD = "/usr/sbin/rsyslogd";

export interface SyslogMessage {
  pri: number;
  version: number;
  timestamp: string;
  hostname: string;
  appName: string;
  procId: string;
  msgId: string;
  /** SD-ID → its params, values unescaped. */
  sd: Record<string, Record<string, string>>;
  msg: string;
}

export interface Rsyslog {
  port: number;
  /** The CA that signed the server's certificate (CN and SAN localhost, 127.0.0.1, ::1), when TLS is on. */
  caPem: string | null;
  messages(): SyslogMessage[];
  waitFor(count: number, timeoutMs?: number): Promise<SyslogMessage[]>;
  close(): Promise<void>;
}

/** A fresh CA in `dir`: its key and certificate files, and the certificate's PEM. */
export async function makeCa(dir: string, name = "ca"): Promise<{ key: string; cert: string; pem: string }> {
  const key = path.join(dir, `${name}.key`);
  const cert = path.join(dir, `${name}.pem`);
  const extensions = ["-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"];
  const subject = ["-subj", `/CN=Control Plane test ${name}`];
  await run("openssl", [
    ..."req -x509 -newkey rsa:2048 -nodes -days 2".split(" "),
    "-keyout",
    key,
    "-out",
    cert,
    ...subject,
    ...extensions,
  ]);
  return { key, cert, pem: readFileSync(cert, "utf8") };
}

async function serverCertificate(dir: string, ca: { key: string; cert: string }) {
  const key = path.join(dir, "server.key");
  const csr = path.join(dir, "server.csr");
  const cert = path.join(dir, "server.pem");
  const ext = path.join(dir, "server.ext");
  writeFileSync(ext, "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n");
  await run("openssl", ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr, "-subj", "/CN=localhost"]);
  const signed = ["-CA", ca.cert, "-CAkey", ca.key, "-CAcreateserial", "-extfile", ext];
  await run("openssl", [..."x509 -req -days 2".split(" "), "-in", csr, "-out", cert, ...signed]);
  return { key, cert };
}

export async function startRsyslog(options: { tls?: boolean } = {}): Promise<Rsyslog> {
  const useTls = options.tls ?? true;
  const dir = mkdtempSync(path.join(tmpdir(), "rsyslog-"));
  const work = path.join(dir, "work");
  mkdirSync(work);
  const out = path.join(dir, "messages.log");
  const portFile = path.join(dir, "port");
  let caPem: string | null = null;
  let tlsGlobals = "";
  let tlsModule = "";
  if (useTls) {
    const ca = await makeCa(dir);
    const server = await serverCertificate(dir, ca);
    caPem = ca.pem;
    tlsGlobals = `defaultNetstreamDriver="gtls" defaultNetstreamDriverCAFile="${ca.cert}"
  defaultNetstreamDriverCertFile="${server.cert}" defaultNetstreamDriverKeyFile="${server.key}"`;
    tlsModule = `streamDriver.name="gtls" streamDriver.mode="1" streamDriver.authMode="anon"`;
  }
  const conf = path.join(dir, "rsyslog.conf");
  writeFileSync(
    conf,
    `global(workDirectory="${work}" maxMessageSize="256k" ${tlsGlobals})
module(load="imtcp" ${tlsModule})
input(type="imtcp" port="0" listenPortFileName="${portFile}" ruleset="received")
ruleset(name="received") { action(type="omfile" file="${out}" template="RSYSLOG_SyslogProtocol23Format") }
`,
  );
  const child: ChildProcess = spawn(RSYSLOGD, ["-n", "-f", conf, "-i", path.join(dir, "rsyslogd.pid")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const port = await until(
    () => {
      if (child.exitCode !== null) throw new Error(`rsyslogd exited (${child.exitCode}): ${output}`);
      return existsSync(portFile) ? Number(readFileSync(portFile, "utf8").trim()) : 0;
    },
    (p) => p > 0,
    { timeoutMs: 10_000, message: () => `rsyslogd did not listen: ${output}` },
  );
  const messages = () => (existsSync(out) ? readFileSync(out, "utf8").split("\n").filter(Boolean).map(parseSyslogLine) : []);
  return {
    port,
    caPem,
    messages,
    waitFor: (count, timeoutMs = 10_000) =>
      until(messages, (m) => m.length >= count, { timeoutMs, message: (m) => `expected ${count} syslog messages, got ${m.length}` }),
    close: async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One RFC 5424 line as rsyslog's SyslogProtocol23 template writes it. */
export function parseSyslogLine(line: string): SyslogMessage {
  const header = /^<(\d+)>(\d+) (\S+) (\S+) (\S+) (\S+) (\S+) /.exec(line);
  if (!header) throw new Error(`not an RFC 5424 line: ${line}`);
  let i = header[0].length;
  const sd: SyslogMessage["sd"] = {};
  if (line[i] === "-") i += 1;
  else {
    while (line[i] === "[") {
      const id = /^\[([^ \]]+)/.exec(line.slice(i))!;
      const params: Record<string, string> = {};
      i += id[0].length;
      while (line[i] === " ") {
        const name = /^ ([^=]+)="/.exec(line.slice(i))!;
        i += name[0].length;
        let value = "";
        while (line[i] !== '"') {
          if (line[i] === "\\" && ['"', "\\", "]"].includes(line[i + 1]!)) i++;
          value += line[i++];
        }
        i++;
        params[name[1]!] = value;
      }
      if (line[i] !== "]") throw new Error(`bad STRUCTURED-DATA at ${i}: ${line}`);
      i++;
      sd[id[1]!] = params;
    }
  }
  return {
    pri: Number(header[1]),
    version: Number(header[2]),
    timestamp: header[3]!,
    hostname: header[4]!,
    appName: header[5]!,
    procId: header[6]!,
    msgId: header[7]!,
    sd,
    msg: line.slice(i + 1),
  };
}
