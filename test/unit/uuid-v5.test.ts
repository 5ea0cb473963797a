import { expect, test } from "vitest";
import { uuidV5 } from "../../server/sso/broker/grants.ts";

test("uuidV5 matches RFC 9562's example (DNS namespace, www.example.com) and is stable per (namespace, name)", () => {
  expect(uuidV5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "www.example.com")).toBe("2ed6657d-e927-568b-95e1-2665a8aea6a2");
  const provider = "0b6c1f9e-2a4d-4c7b-9f3e-5d2a1c0e8b7a";
  expect(uuidV5(provider, "sub-1")).toBe(uuidV5(provider, "sub-1"));
  expect(uuidV5(provider, "sub-1")).not.toBe(uuidV5(provider, "sub-2"));
  expect(uuidV5("1b6c1f9e-2a4d-4c7b-9f3e-5d2a1c0e8b7a", "sub-1")).not.toBe(uuidV5(provider, "sub-1"));
});
