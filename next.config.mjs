import { SECURITY_HEADERS } from "./security-headers.mjs";

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Next 16 loads every page's and route's server bundle at start by default: 40 MB of RSS an idle
  // instance holds for pages it may never serve. Off, each loads on its first request (BENCHMARKS.md, Memory).
  experimental: { preloadEntriesOnStart: false },
  // A separate build directory lets a benchmark or second checkout build beside the main one.
  distDir: process.env.NEXT_DIST_DIR || ".next",
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
