/** A local identity-provider stand-in on 127.0.0.1 serving metadata documents, good and bad. */
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";

export const SIGNING_CERT_PEM = readFileSync(new URL("../fixtures/idp-signing-cert.pem", import.meta.url), "utf8");
const certBase64 = SIGNING_CERT_PEM.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "");

export function samlMetadata(entityId = "https://idp.example.test/saml") {
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" WantAuthnRequestsSigned="false">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo><ds:X509Data><ds:X509Certificate>
        ${certBase64.match(/.{1,64}/g)!.join("\n        ")}
      </ds:X509Certificate></ds:X509Data></ds:KeyInfo>
    </md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://idp.example.test/saml/post"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example.test/saml/redirect"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
}

export const XXE_PAYLOAD = `<?xml version="1.0"?>
<!DOCTYPE md [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> <!ENTITY a "aaaaaaaaaa"> <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;"> ]>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="&xxe;&b;">
  <md:IDPSSODescriptor><md:SingleSignOnService Binding="x" Location="https://idp/&xxe;"/></md:IDPSSODescriptor>
</md:EntityDescriptor>`;

export const OIDC_DISCOVERY = {
  issuer: "https://login.example.test",
  authorization_endpoint: "https://login.example.test/oauth2/authorize",
  token_endpoint: "https://login.example.test/oauth2/token",
  jwks_uri: "https://login.example.test/.well-known/jwks.json",
  response_types_supported: ["code"],
};

export interface IdpServer {
  url: string;
  close(): Promise<void>;
}

export async function startIdpServer(): Promise<IdpServer> {
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((req, res) => {
    switch (req.url) {
      case "/saml.xml":
        res.writeHead(200, { "content-type": "application/samlmetadata+xml" }).end(samlMetadata());
        return;
      case "/.well-known/openid-configuration":
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(OIDC_DISCOVERY));
        return;
      case "/error":
        res.writeHead(500).end("boom");
        return;
      case "/stall":
        // Headers, then nothing for 6 seconds.
        res.writeHead(200, { "content-type": "application/xml" });
        res.write("<md:EntityDescriptor");
        setTimeout(() => res.end("/>"), 6_000).unref();
        return;
      case "/huge.xml": {
        res.writeHead(200, { "content-type": "application/xml" });
        const chunk = Buffer.alloc(64 * 1024, "a");
        for (let i = 0; i < 80; i++) res.write(chunk); // 5 MiB
        res.end();
        return;
      }
      case "/xxe.xml":
        res.writeHead(200, { "content-type": "application/xml" }).end(XXE_PAYLOAD);
        return;
      case "/redirect":
        res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data" }).end();
        return;
      case "/not-json":
        res.writeHead(200, { "content-type": "application/json" }).end("<html>hello</html>");
        return;
      default:
        res.writeHead(404).end();
    }
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
