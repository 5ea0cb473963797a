/** Types of what test/unit/architecture.test.ts reads from eslint.config.mjs. */
export declare const SERVER_ENTRY_POINTS: string[];
export declare const SERVER_LAYERS: Record<"platform" | "trpc" | "domains" | "app" | "edges", string[]>;
declare const config: unknown;
export default config;
