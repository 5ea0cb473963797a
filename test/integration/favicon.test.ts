/** `/favicon.ico` answers the app's icon (browsers and monitoring ask for it by that name), not 404. */
import { expect, test } from "vitest";
import { readFileSync } from "node:fs";
import { apiServer } from "../support/api-server.ts";

const api = apiServer();

test("GET /favicon.ico is the app's icon", async () => {
  const res = await fetch(`${api.url}/favicon.ico`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/svg+xml");
  expect(await res.text()).toBe(readFileSync("app/icon.svg", "utf8"));
});
