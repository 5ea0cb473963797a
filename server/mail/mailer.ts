/**
 * Outgoing mail (invitations, password resets). With SMTP_URL set, through that server; without
 * it (the embedded default), the message is written under DATA_DIR/mail/ and its file logged, so a
 * fresh install can still follow the links: an `.eml` for mail clients and, beside it, a `.txt` of
 * the plain text (the `.eml` body is quoted-printable, which breaks links copied out of it).
 * Bodies carry single-use links: never log them.
 */
import "server-only";
import { mkdir, writeFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { appUrl, env } from "../env.ts";
import { log } from "../log.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

let smtp: { url: string; transport: Transporter } | undefined;

function smtpTransport(url: string): Transporter {
  if (smtp?.url !== url) smtp = { url, transport: nodemailer.createTransport(url) };
  return smtp.transport;
}

function sender(): string {
  return env().MAIL_FROM ?? `Control Plane <no-reply@${new URL(appUrl()).hostname}>`;
}

/** Where a message went: to the mail server, or (none configured) into a file of DATA_DIR/mail/. */
export type MailDelivery = { via: "smtp" } | { via: "file"; file: string };

/** Whether mail goes to a mail server (SMTP_URL) rather than into files nobody is sent. */
export function mailServerConfigured(): boolean {
  return Boolean(env().SMTP_URL);
}

/** Sends one message; throws when the SMTP server refuses it or cannot be reached. */
export async function sendMail(mail: Mail): Promise<MailDelivery> {
  const { SMTP_URL, DATA_DIR } = env();
  const message = { from: sender(), to: mail.to, subject: mail.subject, text: mail.text };
  if (SMTP_URL) {
    await smtpTransport(SMTP_URL).sendMail(message);
    log.info("mail sent", { to: mail.to, subject: mail.subject });
    return { via: "smtp" };
  }
  const built = await nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" }).sendMail(message);
  const dir = path.resolve(DATA_DIR, "mail");
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const base = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(3).toString("hex")}`);
  await writeFile(`${base}.eml`, built.message as Buffer, { mode: 0o600 });
  await writeFile(`${base}.txt`, `To: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}`, { mode: 0o600 });
  const file = `${base}.txt`;
  log.info("mail written to a file (SMTP_URL is unset)", { to: mail.to, subject: mail.subject, file });
  return { via: "file", file };
}

/**
 * Sends without making the caller wait or fail: for answers that must not reveal, by their timing
 * or their outcome, whether a mail went out (password reset).
 */
export function sendMailInBackground(mail: Mail): void {
  sendMail(mail).catch((error: unknown) =>
    log.error("mail not sent", { to: mail.to, subject: mail.subject, error: error instanceof Error ? error.message : String(error) }),
  );
}

/** An absolute link into the console. The token rides in the fragment, which browsers never send to servers or in Referer. */
export function consoleLink(pathname: string, token: string): string {
  return `${appUrl()}${pathname}#token=${encodeURIComponent(token)}`;
}
