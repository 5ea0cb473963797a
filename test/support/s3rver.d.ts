// s3rver ships no types: what test/support/s3-server.ts uses of it.
declare module "s3rver" {
  import type { AddressInfo } from "node:net";
  export default class S3rver {
    constructor(options: {
      address?: string;
      port?: number;
      silent?: boolean;
      directory?: string;
      vhostBuckets?: boolean;
      configureBuckets?: { name: string }[];
    });
    /** Koa's middleware list, composed when the server starts listening. */
    middleware: unknown[];
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
declare module "s3rver/lib/models/account.js" {
  const AWSAccount: {
    DUMMY_ACCOUNT: { createKeyPair(accessKeyId: string, secretAccessKey: string): void; revokeAccessKey(accessKeyId: string): void };
  };
  export default AWSAccount;
}
