import { SECURITY_HEADERS } from "./security-headers.mjs";

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Next 16 loads every page's and route's server bundle at start by default: 40 MB of RSS an idle
  // instance holds for pages it may never serve. Off, each loads on its first request (BENCHMARKS.md, Memory).
  experimental: { preloadEntriesOnStart: false },
  // A separate build directory lets a benchmark or second checkout build beside the main one.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // `npm test` type-checks before it builds, and `npm start` builds code that CI type-checked:
  // both set SKIP_BUILD_TYPECHECK=1 so `next build` does not run the same check a second time
  // (about a minute on a 2-core machine). A plain `next build` still checks.
  typescript: { ignoreBuildErrors: process.env.SKIP_BUILD_TYPECHECK === "1" },
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "@prisma/client", "@prisma/adapter-pg"],
  async headers() {
    return [
      {
        source: "/:path*",
        headers: SECURITY_HEADERS,
      },
    ];
  },
};

export default nextConfig;
