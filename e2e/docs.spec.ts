import { expect, test } from "./fixtures";
import { OPERATOR_TOKEN } from "./constants";
import { expectNoSeriousA11yViolations } from "./axe";

test("the API reference renders the OpenAPI document with assets served by the app", async ({ page, request }) => {
  const external: string[] = [];
  page.on("request", (r) => {
    if (!r.url().startsWith(test.info().project.use.baseURL!)) external.push(r.url());
  });
  await page.goto("/docs");
  await expect(page.getByRole("heading", { name: /Control Plane API/ })).toBeVisible();
  await expect(page.getByText("/tenants/{tenant_id}", { exact: true })).toBeVisible();
  expect(external).toEqual([]);

  const bundle = page.locator("script[src*='swagger-ui-bundle.js']");
  const response = await request.get((await bundle.getAttribute("src"))!);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("text/javascript");
  expect(response.headers()["cache-control"]).toContain("immutable");
  expect((await request.get("/docs/assets/package.json")).status()).toBe(404);
});

test("a problem response links to its code on the error codes page", async ({ page, request }) => {
  const response = await request.get("/api/v1/tenants/00000000-0000-4000-8000-000000000000", {
    headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` },
  });
  expect(response.status()).toBe(404);
  const problem = (await response.json()) as { type: string; code: string };
  await page.goto(problem.type);
  const entry = page.locator(`[id="${problem.code}"]`);
  await expect(entry).toBeVisible();
  await expect(entry).toContainText("404");
  await expect(entry).toContainText("Not found");
});

test("the guides of docs/ open from the documentation's header", async ({ page }) => {
  await page.goto("/docs/events");
  await page.getByRole("navigation", { name: "Documentation" }).getByRole("link", { name: "Guides" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Guides" })).toBeVisible();
  await page.getByRole("link", { name: "Webhooks" }).click();
  await expect(page).toHaveURL(/\/docs\/guides\/webhooks$/);
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  expect((await page.goto("/docs/guides/..%2FREADME"))?.status()).toBe(404);
});
