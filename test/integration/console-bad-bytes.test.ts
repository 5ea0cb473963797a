/**
 * The console's tRPC route decodes bodies as strictly as the REST edge: bytes that are not UTF-8
 * are a 400 naming the body, never silently stored as U+FFFD.
 */
import { expect, test } from "vitest";
import { POST } from "../../app/api/trpc/[trpc]/route.ts";

const URL_CREATE = "http://127.0.0.1/api/trpc/tenants.create";

function post(body: Uint8Array<ArrayBuffer>) {
  return POST(new Request(URL_CREATE, { method: "POST", headers: { "Content-Type": "application/json" }, body }));
}

test("a console call whose body is not UTF-8 is a 400 naming the body", async () => {
  // {"name":"x<0xFF>y"}: a stray byte that a lenient decoder would turn into U+FFFD.
  const bytes = new Uint8Array([...Buffer.from('{"name":"x'), 0xff, ...Buffer.from('y"}')]);
  const res = await post(bytes);
  expect(res.status).toBe(400);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  const problem = (await res.json()) as { code: string; errors: { path: string }[] };
  expect(problem.code).toBe("invalid_request");
  expect(problem.errors).toEqual([{ path: "body", message: "is not valid UTF-8" }]);
});

test("a valid UTF-8 body reaches the procedure (here: no session, so 401)", async () => {
  const res = await post(new Uint8Array(Buffer.from('{"name":"Zürich 💥"}')));
  expect(res.status).toBe(401);
});
