/**
 * A stand-in OpenID Provider for `npm run bench:sso`, in its own process so that its CPU is not
 * counted as ours: discovery, the JWKS, and a token endpoint that answers each authorization code
 * with a token response signed ahead of time by the bench (sent over IPC). No signing, no checks:
 * the IdP's own work is excluded from what the bench reports.
 */
import http from "node:http";

let jwks = { keys: [] };
let tokens = new Map();
let issuer = "";

const server = http.createServer((req, res) => {
  const url = new URL(req.url, issuer);
  const json = (status, body) =>
    res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify(body));
  if (url.pathname === "/.well-known/openid-configuration") {
    return json(200, {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      response_types_supported: ["code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
      code_challenge_methods_supported: ["S256"],
    });
  }
  if (url.pathname === "/jwks") return json(200, jwks);
  if (url.pathname === "/token" && req.method === "POST") {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const code = new URLSearchParams(Buffer.concat(chunks).toString()).get("code");
      const answer = tokens.get(code);
      tokens.delete(code);
      if (!answer) return json(400, { error: "invalid_grant" });
      json(200, answer);
    });
    return;
  }
  res.writeHead(404).end();
});

process.on("message", (message) => {
  if (message.type === "jwks") jwks = message.jwks;
  if (message.type === "tokens") for (const [code, body] of message.tokens) tokens.set(code, body);
  process.send({ type: "ack" });
});
process.on("disconnect", () => server.close(() => process.exit(0)));

server.listen(0, "127.0.0.1", () => {
  issuer = `http://127.0.0.1:${server.address().port}`;
  process.send({ type: "ready", issuer });
});
