/** Types of scripts/build-server.mjs (plain JavaScript, so `npm start` needs no TypeScript loader). */
export declare const SERVER_OUTDIR: string;
/** Bundles the server into `outdir` (relative to the project root); resolves the seconds it took. */
export declare function buildServer(outdir?: string): Promise<number>;
/** True when `outdir` has no build, or a file it was built from changed since. */
export declare function serverBuildIsStale(outdir?: string): boolean;
export const serverOnly: import("esbuild").Plugin;
