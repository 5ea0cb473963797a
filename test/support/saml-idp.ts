/**
 * A SAML identity provider on 127.0.0.1 for tests: it publishes metadata (one or more signing
 * certificates, generated in memory), takes AuthnRequests on its HTTP-Redirect SSO endpoint, and
 * answers with a signed Response in an auto-posting HTML form, as Okta or Entra do. Each knob of
 * `ResponseOptions` (signing, key, tamper, XSW, audience, destination, times…) can be set for the
 * next sign-in, so every refusal is produced by the IdP rather than written by hand in a test.
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { inflateRawSync } from "node:zlib";
import { DOMParser } from "@xmldom/xmldom";
import { buildResponse, toBase64, type ResponseOptions } from "./saml-response.ts";
import { selfSignedCertificate, type KeyAndCertificate } from "./x509.ts";

export interface AuthnRequestSeen {
  id: string;
  issuer: string;
  acsUrl: string;
  destination: string | null;
  /** ForceAuthn="true": the SP wants the person to authenticate again (step-up). */
  forceAuthn: boolean;
}

export type ResponseOverrides = Partial<ResponseOptions>;

export interface PostedForm {
  action: string;
  samlResponse: string;
  relayState: string | null;
  request: AuthnRequestSeen;
  assertionId: string;
}

export interface SamlIdp {
  url: string;
  entityId: string;
  ssoUrl: string;
  metadataUrl: string;
  /** The certificates published in metadata, in order. */
  keys: KeyAndCertificate[];
  /** Signs with this key (default the first published); may be one not published. */
  signingKey: KeyAndCertificate;
  user: { nameId: string; nameIdFormat?: string; attributes: Record<string, string | string[]> };
  metadataXml(): string;
  /** A Response for our SP, as the IdP would post it (base64), e.g. IdP-initiated ones. */
  issue(options: ResponseOverrides & Pick<ResponseOptions, "audience" | "acsUrl" | "inResponseTo">): {
    samlResponse: string;
    xml: string;
    assertionId: string;
  };
  /** Follows our redirect to the IdP like a browser, signs the user in, returns the form it posts back. */
  login(redirectUrl: string, overrides?: ResponseOverrides): Promise<PostedForm>;
  close(): Promise<void>;
}

const escapeHtml = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** HTTP-Redirect deflates the request; HTTP-POST sends it as is. */
function readAuthnRequest(encoded: string, deflated: boolean): AuthnRequestSeen {
  const raw = Buffer.from(encoded, "base64");
  const xml = (deflated ? inflateRawSync(raw) : raw).toString("utf8");
  const root = new DOMParser().parseFromString(xml, "text/xml").documentElement;
  if (!root || root.localName !== "AuthnRequest") throw new Error("not an AuthnRequest");
  const issuer = root.getElementsByTagNameNS("urn:oasis:names:tc:SAML:2.0:assertion", "Issuer")[0]?.textContent ?? "";
  return {
    id: root.getAttribute("ID") ?? "",
    issuer,
    acsUrl: root.getAttribute("AssertionConsumerServiceURL") ?? "",
    destination: root.getAttribute("Destination"),
    forceAuthn: root.getAttribute("ForceAuthn") === "true",
  };
}

function readForm(html: string): { action: string; fields: Record<string, string> } {
  const unescape = (v: string) =>
    v
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
  const action = /<form[^>]*action="([^"]*)"/.exec(html)?.[1];
  if (!action) throw new Error("the page has no form");
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) fields[match[1]!] = unescape(match[2]!);
  return { action: unescape(action), fields };
}

export async function startSamlIdp(
  options: { certificates?: number; nameId?: string; binding?: "redirect" | "post" } = {},
): Promise<SamlIdp> {
  const binding = options.binding ?? "redirect";
  const keys = Array.from({ length: options.certificates ?? 1 }, (_, i) => selfSignedCertificate(`Test SAML IdP ${i + 1}`));
  let nextOverrides: ResponseOverrides = {};
  let last: { request: AuthnRequestSeen; assertionId: string } | null = null;

  /** The request's parameters: the query (HTTP-Redirect) or the form body (HTTP-POST). */
  async function readParams(req: http.IncomingMessage, url: URL): Promise<URLSearchParams> {
    if (req.method === "GET") return url.searchParams;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
  }

  /** Signs the user in (no prompt) and answers with the auto-posting form back to the SP. */
  function answer(res: http.ServerResponse, params: URLSearchParams) {
    const request = readAuthnRequest(params.get("SAMLRequest") ?? "", binding === "redirect");
    const overrides = nextOverrides;
    nextOverrides = {};
    const issued = idp.issue({ audience: request.issuer, acsUrl: request.acsUrl, inResponseTo: request.id, ...overrides });
    last = { request, assertionId: issued.assertionId };
    const relayState = params.get("RelayState");
    const inputs = [
      `<input type="hidden" name="SAMLResponse" value="${escapeHtml(issued.samlResponse)}"/>`,
      relayState !== null ? `<input type="hidden" name="RelayState" value="${escapeHtml(relayState)}"/>` : "",
    ].join("");
    res
      .writeHead(200, { "content-type": "text/html; charset=utf-8" })
      .end(
        `<!DOCTYPE html><html><body onload="document.forms[0].submit()"><form method="post" action="${escapeHtml(request.acsUrl)}">${inputs}</form></body></html>`,
      );
  }

  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://idp");
    try {
      if (url.pathname === "/metadata") {
        res.writeHead(200, { "content-type": "application/samlmetadata+xml" }).end(idp.metadataXml());
        return;
      }
      if (url.pathname === "/sso" && req.method === (binding === "redirect" ? "GET" : "POST")) {
        void readParams(req, url)
          .then((params) => answer(res, params))
          .catch((error: Error) => res.writeHead(400, { "content-type": "text/plain" }).end(error.message));
        return;
      }
      res.writeHead(404).end();
    } catch (error) {
      res.writeHead(400, { "content-type": "text/plain" }).end((error as Error).message);
    }
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const idp: SamlIdp = {
    url: base,
    entityId: `${base}/entity`,
    ssoUrl: `${base}/sso`,
    metadataUrl: `${base}/metadata`,
    keys,
    signingKey: keys[0]!,
    user: {
      nameId: options.nameId ?? "alice@example.com",
      attributes: {
        "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname": "Alice",
        "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname": "Liddell",
        "http://schemas.microsoft.com/ws/2008/06/identity/claims/groups": ["engineering", "admins"],
      },
    },
    metadataXml() {
      const descriptors = idp.keys
        .map(
          (k) =>
            `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${k.certificateBase64.match(/.{1,64}/g)!.join("\n")}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`,
        )
        .join("");
      return (
        `<?xml version="1.0" encoding="UTF-8"?>` +
        `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${idp.entityId}">` +
        `<md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${descriptors}` +
        `<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>` +
        `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:${binding === "redirect" ? "HTTP-Redirect" : "HTTP-POST"}" Location="${idp.ssoUrl}"/>` +
        `</md:IDPSSODescriptor></md:EntityDescriptor>`
      );
    },
    issue(issueOptions) {
      const built = buildResponse({
        issuer: idp.entityId,
        nameId: idp.user.nameId,
        nameIdFormat: idp.user.nameIdFormat,
        attributes: idp.user.attributes,
        key: idp.signingKey,
        ...issueOptions,
      });
      return { samlResponse: toBase64(built.xml), xml: built.xml, assertionId: built.assertionId };
    },
    async login(redirectUrl, overrides = {}) {
      nextOverrides = overrides;
      last = null;
      let res: Response;
      if (redirectUrl.startsWith(`${idp.ssoUrl}?`)) {
        res = await fetch(redirectUrl, { redirect: "manual" });
      } else {
        // HTTP-POST: the SP's page carries a form to this IdP; post it as the browser would.
        const page = await fetch(redirectUrl, { redirect: "manual" });
        const { action, fields } = readForm(await page.text());
        if (action !== idp.ssoUrl) throw new Error(`the SP's form posts to ${action}, not this IdP`);
        res = await fetch(action, { method: "POST", body: new URLSearchParams(fields), redirect: "manual" });
      }
      const body = await res.text();
      if (res.status !== 200) throw new Error(`the IdP answered ${res.status}: ${body}`);
      const { action, fields } = readForm(body);
      return {
        action,
        samlResponse: fields.SAMLResponse!,
        relayState: fields.RelayState ?? null,
        request: last!.request,
        assertionId: last!.assertionId,
      };
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return idp;
}
