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
const SERVER_ENTRY_POINTS = ["account/session", "contract/problem", "tenants/pages", "app/pages"];

/** `@/server/…` or `../server/…`, except the given modules (with or without `.ts`). */
const serverImportsExcept = (allowed) => `^(?:@/|(?:\\.\\./)+)server/(?!(?:${allowed.join("|")})(?:\\.ts)?$)`;

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
    "playwright-report/**",
    "test-results/**",
    "next-env.d.ts",
  ]),
  {
    // import/no-cycle reads every imported module; packages and the generated client need no reading.
    settings: { "import/ignore": ["node_modules", "server/db/generated"] },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // File-level cycles anywhere in the project (packages are not followed).
      "import/no-cycle": ["error", { ignoreExternal: true }],
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
]);
