export declare const SERVER_DIR: string;
export declare const SERVER_ENTRY: string;
export declare const DIST_DIR: string;
export declare function serverEnv(port: number): NodeJS.ProcessEnv;
