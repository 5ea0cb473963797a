/**
 * The SDK's type test: calls that `npx tsc --noEmit` (the root tsconfig covers sdk/) checks and
 * never runs. Each `@ts-expect-error` line is a misspelled path, field or value: were the types to
 * loosen (any, an index signature, a stale schema), the line would compile, the directive would
 * be unused, and tsc would fail.
 */
import { ControlPlane, type Schema } from "../src/index.ts";

export async function calls(cp: ControlPlane, tenantId: string): Promise<void> {
  const tenant: Schema<"Tenant"> = await cp.tenants.create({ name: "Acme" });
  const hook = await cp.webhooks.create(
    tenant.id,
    { url: "https://acme.example/hooks", events: ["user.created"] },
    { idempotencyKey: "k-1" },
  );
  const secret: string | undefined = hook.secret;
  void secret;
  for await (const member of cp.members.list(tenantId, { page_size: 100 })) {
    const role: "admin" | "viewer" = member.role;
    void role;
  }
  for await (const event of cp.audit.list(tenantId, { event_type: "user.*" })) void event.actor.email;
  await cp.http.GET("/tenants/{tenant_id}", { params: { path: { tenant_id: tenantId } } });

  // @ts-expect-error a misspelled field of a body
  await cp.webhooks.create(tenantId, { url: "https://acme.example/hooks", event: ["user.created"] });
  // @ts-expect-error a value outside the field's enum
  await cp.members.update(tenantId, "user-1", { role: "owner" });
  // @ts-expect-error a misspelled query parameter
  cp.tenants.list({ pagesize: 10 });
  // @ts-expect-error a misspelled path on the raw client
  await cp.http.GET("/tenant/{tenant_id}", { params: { path: { tenant_id: tenantId } } });
  // @ts-expect-error a misspelled field of an answer
  void tenant.nmae;

  const stream: Schema<"LogStream"> = await cp.logStreams.create(tenantId, { name: "SIEM", type: "syslog", config: { host: "siem" } });
  await cp.logStreams.update(tenantId, stream.id, { enabled: false }, { timeout: 5_000 });
  await cp.logStreams.get(tenantId, stream.id, { timeout: 0 });
  // @ts-expect-error a log stream type the API does not have
  await cp.logStreams.create(tenantId, { name: "x", type: "ftp", config: {} });
  // @ts-expect-error a timeout is milliseconds, a number
  await cp.tenants.get(tenantId, { timeout: "5s" });
}
