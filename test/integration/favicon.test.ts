/** `/favicon.ico` answers the app's icon (browsers and monitoring ask for it by that name), not 404. */
import { afterAll, beforeAll, expect, test } from "vitest";
import { readFileSync } from "node:fs";
import { startApi, type TestApi } from "../support/api.ts";

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

test("GET /favicon.ico is the app's icon", async () => {
  const res = await fetch(`${api.url}/favicon.ico`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/svg+xml");
  expect(await res.text()).toBe(readFileSync("app/icon.svg", "utf8"));
});
