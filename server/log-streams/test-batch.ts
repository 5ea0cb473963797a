/**
 * POST …/log-streams/{id}/test: one batch holding a single `log_stream.test` event (range 0-0,
 * `test: true`) sent with the stored config, answered with what the receiver said. It is not an
 * audit event (the chain does not move) and the cursor stays; the attempt shows in the batches.
 */
import { randomUUID } from "node:crypto";
import { CHAIN_VERSION } from "../events/emit.ts";
import type { TenantServiceContext } from "../service-context.ts";
import { send } from "./engine.ts";
import type { LogStreamTestResult, LogStreamType } from "./schemas.ts";
import { findStream } from "./service.ts";
import type { StreamBatch } from "./sinks/types.ts";

export async function sendTestBatch(ctx: TenantServiceContext, streamId: string): Promise<LogStreamTestResult> {
  const stream = await findStream(ctx.db.prisma, ctx.tenantId, streamId);
  const principal = ctx.actor.principal;
  const batch: StreamBatch = {
    stream_id: stream.id,
    tenant_id: stream.tenantId,
    from_sequence: 0,
    to_sequence: 0,
    test: true,
    digest: null,
    events: [
      {
        id: randomUUID(),
        tenant_id: stream.tenantId,
        event_type: "log_stream.test",
        actor: { id: principal?.userId ?? null, email: null },
        timestamp: new Date().toISOString(),
        metadata: { ip_address: null, user_agent: null },
        target: { type: "log_stream", id: stream.id, name: stream.name },
        details: { message: "A test batch from Control Plane: the stream's receiver is reachable." },
        sequence: 0,
        prev_hash: "",
        hash: "",
        chain_version: CHAIN_VERSION,
        source: { type: "platform", token_id: null, user_id: null },
      },
    ],
  };
  const started = Date.now();
  const answer = await send(
    { id: stream.id, type: stream.type as LogStreamType, config: stream.config, secrets_ciphertext: stream.secretsCiphertext },
    batch,
  );
  const durationMs = Date.now() - started;
  await ctx.db.prisma.logStreamBatch.create({
    data: {
      streamId: stream.id,
      fromSequence: 0n,
      toSequence: 0n,
      events: 1,
      status: answer.ok ? "succeeded" : "failed",
      attempt: 1,
      durationMs,
      responseStatus: answer.status,
      responseBody: answer.body?.slice(0, 1024) ?? null,
      error: answer.error,
      test: true,
    },
  });
  return {
    ok: answer.ok,
    response_status: answer.status,
    response_body: answer.body?.slice(0, 1024) ?? null,
    error: answer.error,
    duration_ms: durationMs,
  };
}
