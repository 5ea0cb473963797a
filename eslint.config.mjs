import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/**
 * Server modules that are pure (zod, constants, types; no database, HTTP, env or outbound calls),
 * so both sides may use them: the console's forms check with the same schemas and limits as the API.
 * Each may import only zod and the others of this list (see the rule for them below).
 */
const PURE_SERVER_MODULES = [
  "[a-z-]+/schemas", // server/<domain>/schemas.ts and server/outbound/schemas.ts
  "events/types", // the event kinds
  "events/catalog", // what each kind carries (server/events/catalog/index.ts)
  "contract/page-query", // the list contract's schemas
  "contract/fields",
  "errors",
  "auth/principal",
];

/**
 * Server modules a server component in app/ (a page or layout, never a client component) may call
 * for values: the session lookup of the signed-in console, what it may see of tenants
 * (server/tenants/pages.ts), the first rows of a page, run through the console's own procedures
 * (server/app/pages.ts), and the problem titles the static
 * /docs/errors page lists.
 */
export const SERVER_ENTRY_POINTS = ["account/session", "contract/problem", "tenants/pages", "app/pages", "setup-links/page"];

/** `@/server/…` or `../server/…`, except the given modules (with or without `.ts`). */
const serverImportsExcept = (allowed) => `^(?:@/|(?:\\.\\./)+)server/(?!(?:${allowed.join("|")})(?:\\.ts)?$)`;

/**
 * The layers of server/, lowest first (docs/architecture.md draws them): the platform (credentials,
 * the API contract, the database, events, outbound calls, mail, secrets, and the single files at
 * server/'s root), the tRPC builders, the domains, then the app (server/app: the app router, and
 * the subscribers and jobs every feature registers) and the edges (server/http: the REST edge; server/ops: the node
 * server, health, metrics). A folder imports its own layer and those below; each zone below is an
 * import that would run up.
 */
const DOMAINS = [
  "account",
  "audit",
  "directories",
  "domains",
  "invitations",
  "log-streams",
  "members",
  "setup-links",
  "sso",
  "tenants",
  "tokens",
  "webhooks",
];
const PLATFORM = ["auth", "contract", "db", "delivery", "events", "jobs", "mail", "outbound", "secrets"];
/** Every folder of server/ by layer, lowest first; test/unit/architecture.test.ts holds docs/architecture.md to it. */
export const SERVER_LAYERS = { platform: PLATFORM, trpc: ["trpc"], domains: DOMAINS, app: ["app"], edges: ["http", "ops"] };
const folders = (names) => names.map((name) => `./server/${name}`);
const LAYER_ZONES = [
  {
    target: folders(DOMAINS),
    from: folders(["app", "http"]),
    message: "a domain imports neither the REST edge (server/http) nor the app router (server/app): see docs/architecture.md",
  },
  {
    target: folders(DOMAINS),
    from: "./server/ops",
    message: "a domain does not import the node server or its probes (server/ops): see docs/architecture.md",
  },
  {
    target: "./server/app",
    from: folders(["http", "ops"]),
    message: "the app (server/app) composes the domains: it imports neither the REST edge (server/http) nor the node server (server/ops)",
  },
  {
    target: "./server/trpc",
    from: folders([...DOMAINS, "app", "http", "ops"]),
    message: "the tRPC builders (server/trpc) import no domain: a domain imports them, not the other way round",
  },
  {
    target: "./server/auth",
    from: "./server/account",
    message: "credentials and limits (server/auth) do not import the console account (server/account), which builds on them",
  },
  {
    target: folders(PLATFORM),
    from: folders(["trpc", "app", "http"]),
    message: "the platform layer imports neither the tRPC builders nor what sits above the domains: see docs/architecture.md",
  },
  {
    target: folders(PLATFORM),
    from: "./server/ops",
    message: "the platform layer does not import the node server or its probes (server/ops): see docs/architecture.md",
  },
  // A domain's front door: another domain uses only what its index.ts exports, and its pure schemas.ts.
  ...DOMAINS.map((domain) => ({
    target: folders(DOMAINS.filter((other) => other !== domain)),
    from: `./server/${domain}`,
    except: ["./index.ts", "./schemas.ts"],
    message: `another domain uses server/${domain} through its index.ts (or its pure schemas.ts): see docs/architecture.md`,
  })),
  // The platform layer may read a domain's pure schemas (a token's prefix, say), nothing else of it.
  ...DOMAINS.map((domain) => ({
    target: folders(PLATFORM),
    from: `./server/${domain}`,
    except: ["./schemas.ts"],
    message: `the platform layer imports no domain (server/${domain}) beyond its pure schemas.ts: see docs/architecture.md`,
  })),
];

const BOUNDARY = "the browser-facing side imports types only from server/, or pure modules (eslint.config.mjs)";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    ".next/**",
    ".next-*/**",
    ".data/**",
    "node_modules/**",
    "server/db/generated/**",
    "sdk/dist/**",
    "dist/**",
    "playwright-report/**",
    "test-results/**",
    "next-env.d.ts",
  ]),
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // File-level cycles are test/unit/import-cycles.test.ts's (one parse per file, not this plugin's resolver).
      "import/no-restricted-paths": ["error", { zones: LAYER_ZONES }],
    },
  },
  {
    // Components can reach the browser bundle: from server/ they take types, or pure modules.
    files: ["components/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ regex: serverImportsExcept(PURE_SERVER_MODULES), allowTypeImports: true, message: BOUNDARY }] },
      ],
    },
  },
  {
    // Pages and layouts are server components, but only the listed entry points are theirs to call.
    // Route handlers (app/api/**, route.ts) are server-only entry points and import what they need.
    files: ["app/**/*.tsx"],
    ignores: ["app/api/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: serverImportsExcept([...PURE_SERVER_MODULES, ...SERVER_ENTRY_POINTS]), allowTypeImports: true, message: BOUNDARY },
          ],
        },
      ],
    },
  },
  {
    // The files at server/'s root (env, log, clock, errors, service-context, metrics) are the ground
    // every layer stands on: they import each other, and of server/'s folders only types.
    files: ["server/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^\\./[a-z-]+/",
              allowTypeImports: true,
              message: "the files at server/'s root import none of server/'s folders, types aside: see docs/architecture.md",
            },
          ],
        },
      ],
    },
  },
  {
    // The pure modules stay pure: zod and each other only.
    files: [
      "server/*/schemas.ts",
      "server/events/types.ts",
      "server/contract/page-query.ts",
      "server/contract/fields.ts",
      "server/errors.ts",
      "server/auth/principal.ts",
    ],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^\\.(?!.*(?:/schemas|/events/types|/types|/page-query|/fields|/errors|/principal)(?:\\.ts)?$)",
              allowTypeImports: true,
              message: "a pure module imports only zod and other pure modules (PURE_SERVER_MODULES in eslint.config.mjs)",
            },
          ],
        },
      ],
    },
  },
  {
    // The event catalog is pure too: its own files, the event kinds and domains' schemas.
    files: ["server/events/catalog/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^\\.(?!(?:/[a-z-]+|\\./types|\\./\\.\\./[a-z-]+/schemas)\\.ts$)",
              allowTypeImports: true,
              message: "the event catalog imports only zod, its own files, the event kinds and domains' schemas.ts",
            },
          ],
        },
      ],
    },
  },
]);
