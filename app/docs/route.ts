import { assetUrl } from "./swagger-assets";
import { NONCE_HEADER } from "@/server/ops/csp";

const LOGO = `<svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="8" fill="#4f46e5"/><path d="M16 7 26 12l-10 5-10-5 10-5Z" fill="#fff"/><path d="m7.5 16.2 8.5 4.3 8.5-4.3" stroke="#c7d2fe" stroke-width="2" fill="none" stroke-linejoin="round"/><path d="m7.5 20.2 8.5 4.3 8.5-4.3" stroke="#a5b4fc" stroke-width="2" fill="none" stroke-linejoin="round"/></svg>`;

/**
 * The API reference: Swagger UI over /api/v1/openapi.json, every file served by this app. Its
 * scripts carry the page's CSP nonce (proxy.ts); Swagger UI's own loads follow ('strict-dynamic').
 */
export async function GET(req: Request) {
  const nonce = req.headers.get(NONCE_HEADER);
  const nonceAttr = nonce && /^[A-Za-z0-9+/=]+$/.test(nonce) ? ` nonce="${nonce}"` : "";
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Control Plane</title>
<link rel="icon" type="image/png" href="${await assetUrl("favicon-32x32.png")}">
<link rel="stylesheet" href="${await assetUrl("swagger-ui.css")}">
<link rel="stylesheet" href="${await assetUrl("docs.css")}">
</head>
<body>
<header class="cp-header">
  <a class="cp-brand" href="/docs">${LOGO}<span>Control Plane</span><small>API reference</small></a>
  <nav class="cp-nav" aria-label="Documentation">
    <a href="/docs/errors">Error codes</a>
    <a href="/docs/events">Event types</a>
    <a href="/docs/guides">Guides</a>
    <a href="/api/v1/openapi.json">OpenAPI document</a>
    <a href="/tenants">Console</a>
  </nav>
</header>
<main id="swagger-ui"><noscript><p class="cp-noscript">The API reference needs JavaScript. The raw <a href="/api/v1/openapi.json">OpenAPI document</a> is available without it.</p></noscript></main>
<script${nonceAttr} src="${await assetUrl("swagger-ui-bundle.js")}"></script>
<script${nonceAttr} src="${await assetUrl("init.js")}"></script>
</body>
</html>
`;
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache" } });
}
