/**
 * A real SMTP server on loopback (smtp-server) that keeps what it receives, so tests can read the
 * mail the app sent and follow its links. Used by the REST tests and the Playwright journeys.
 */
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** The decoded text body (quoted-printable undone). */
  text: string;
}

export interface TestSmtp {
  url: string;
  mails: ReceivedMail[];
  /** The first mail to `to` (after `skip` earlier ones) arriving within `timeoutMs`. */
  waitFor(to: string, options?: { skip?: number; timeoutMs?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

function parse(raw: string, from: string, to: string[]): ReceivedMail {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ");
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head)?.[1]?.trim() ?? "";
  const qp = /quoted-printable/i.test(header("Content-Transfer-Encoding"));
  const base64 = /base64/i.test(header("Content-Transfer-Encoding"));
  const text = qp ? decodeQuotedPrintable(body) : base64 ? Buffer.from(body, "base64").toString("utf8") : body;
  return { from, to, raw, subject: header("Subject"), text: text.replace(/\r\n/g, "\n") };
}

export async function startSmtp(port = 0): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth: (_auth, _session, callback) => callback(null, { user: "test" }),
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        mails.push(
          parse(
            Buffer.concat(chunks).toString("utf8"),
            from,
            session.envelope.rcptTo.map((r) => r.address),
          ),
        );
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    mails,
    async waitFor(to, { skip = 0, timeoutMs = 10_000 } = {}) {
      const find = () => mails.filter((m) => m.to.includes(to.toLowerCase()))[skip];
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = find();
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`no mail to ${to} within ${timeoutMs} ms (received: ${mails.map((m) => m.to.join(",")).join("; ") || "none"})`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The token of the first link to `pathname` in a mail (links carry it in the fragment). */
export function linkIn(mail: ReceivedMail, pathname: string): { url: string; token: string } {
  const match = new RegExp(`(https?://\\S+${pathname}#token=([A-Za-z0-9_%-]+))`).exec(mail.text);
  if (!match) throw new Error(`no ${pathname} link in the mail: ${mail.text}`);
  return { url: match[1]!, token: decodeURIComponent(match[2]!) };
}
