/**
 * The app over real HTTP (test/support/api.ts) for the tests of a file or a describe block:
 * started before them, closed after them. Hooks the caller registers later run after the start and
 * before the close, so they may use the server in both.
 */
import { afterAll, beforeAll } from "vitest";
import { freePort, startApi, type TestApi } from "./api.ts";

export interface ApiServerOptions {
  /**
   * Listen on a port chosen up front, with APP_URL set to it before the app starts: for flows whose
   * redirects and metadata name the app's public address (SSO sign-in, the broker). The app reads
   * APP_URL once.
   */
  appUrl?: boolean;
}

/** The server of apiServer(): `url` is there inside tests and hooks, not while the file loads. */
export interface ApiServer {
  readonly url: string;
}

export function apiServer(options: ApiServerOptions = {}): ApiServer {
  let api: TestApi | undefined;
  beforeAll(async () => {
    const port = options.appUrl ? await freePort() : 0;
    if (options.appUrl) process.env.APP_URL = `http://127.0.0.1:${port}`;
    api = await startApi(port);
  });
  afterAll(async () => {
    await api?.close();
    api = undefined;
  });
  return {
    get url() {
      if (!api) throw new Error("apiServer(): the server runs only while the tests that asked for it do; read `url` in a test or hook");
      return api.url;
    },
  };
}
