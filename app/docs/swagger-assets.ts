/**
 * The files behind /docs: Swagger UI from the swagger-ui-dist package (no CDN), plus our own
 * start-up script and header styles. Only the names listed here are ever served.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

const INIT_JS = `window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/api/v1/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    displayRequestDuration: true,
    defaultModelsExpandDepth: 0,
  });
});
`;

const DOCS_CSS = `
body { margin: 0; background: #fff; color: #0f172a;
  font-family: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
.cp-header { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 12px;
  padding: 12px 24px; border-bottom: 1px solid #e2e8f0; background: #fff; position: sticky; top: 0; z-index: 10; }
.cp-brand { display: inline-flex; align-items: center; gap: 10px; color: #0f172a; text-decoration: none;
  font-weight: 600; font-size: 15px; letter-spacing: -0.01em; }
.cp-brand small { font-weight: 500; color: #475569; font-size: 13px; padding-left: 10px; border-left: 1px solid #cbd5e1; }
.cp-nav { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 14px; }
.cp-nav a { color: #4338ca; text-decoration: none; font-weight: 500; }
.cp-nav a:hover { text-decoration: underline; }
.cp-header a:focus-visible { outline: 2px solid #4f46e5; outline-offset: 2px; border-radius: 4px; }
#swagger-ui { max-width: 1280px; margin: 0 auto; }
.swagger-ui .info { margin: 32px 0 24px; }
.swagger-ui .scheme-container { box-shadow: none; border-top: 1px solid #e2e8f0; border-bottom: 1px solid #e2e8f0; }
.cp-noscript { max-width: 640px; margin: 48px auto; padding: 0 24px; }
`;

interface Asset {
  contentType: string;
  /** A file of swagger-ui-dist, or our own text. */
  source: { dist: string } | { text: string };
}

const ASSETS: Record<string, Asset> = {
  "swagger-ui.css": { contentType: "text/css; charset=utf-8", source: { dist: "swagger-ui.css" } },
  "swagger-ui-bundle.js": { contentType: "text/javascript; charset=utf-8", source: { dist: "swagger-ui-bundle.js" } },
  "favicon-32x32.png": { contentType: "image/png", source: { dist: "favicon-32x32.png" } },
  "init.js": { contentType: "text/javascript; charset=utf-8", source: { text: INIT_JS } },
  "docs.css": { contentType: "text/css; charset=utf-8", source: { text: DOCS_CSS } },
};

/**
 * The package's folder, resolved at run time from the app's root. (Resolving from
 * `import.meta.url` does not survive bundling: Turbopack turns that into a module id.)
 */
function distDir(): string {
  const fromRoot = createRequire(path.join(process.cwd(), "package.json"));
  return path.dirname(fromRoot.resolve("swagger-ui-dist/package.json"));
}

let version: string | undefined;

/** Changes whenever any served file can change: the package version and our own texts. */
export async function assetVersion(): Promise<string> {
  if (version) return version;
  const pkg = JSON.parse(await readFile(path.join(distDir(), "package.json"), "utf8")) as { version: string };
  const ours = createHash("sha256").update(INIT_JS).update(DOCS_CSS).digest("hex").slice(0, 8);
  version = `${pkg.version}-${ours}`;
  return version;
}

/** The URL of an asset, versioned so that it can be cached for a year. */
export async function assetUrl(name: keyof typeof ASSETS & string): Promise<string> {
  return `/docs/assets/${name}?v=${await assetVersion()}`;
}

const cache = new Map<string, Buffer>();

/** The asset's bytes and type, or null for any name not listed above. */
export async function readAsset(name: string): Promise<{ body: Buffer; contentType: string } | null> {
  const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
  if (!asset) return null;
  let body = cache.get(name);
  if (!body) {
    body = "text" in asset.source ? Buffer.from(asset.source.text) : await readFile(path.join(distDir(), asset.source.dist));
    cache.set(name, body);
  }
  return { body, contentType: asset.contentType };
}
