/** Audit log streams of a tenant over REST at /tenants/{tenant_id}/log-streams. */
import { z } from "zod";
import { router } from "../trpc/init.ts";
import { tenantProcedure } from "../trpc/procedures.ts";
import { created, noContent, serviceContext } from "../trpc/context.ts";
import { envelope, pageRequest } from "../contract/pagination.ts";
import {
  CreateLogStreamInput,
  ListBatchesInput,
  ListLogStreamsInput,
  LogStream,
  LogStreamBatchPage,
  LogStreamPage,
  LogStreamPathInput,
  LogStreamTestResult,
  UpdateLogStreamInput,
} from "./schemas.ts";
import { createStream, deleteStream, getStream, headOf, listStreams, presentStream, updateStream } from "./service.ts";
import { listBatches, presentBatch } from "./batches.ts";
import { sendTestBatch } from "./test-batch.ts";

const tags = ["Log streams"];
const base = "/tenants/{tenant_id}/log-streams";
const one = `${base}/{stream_id}` as const;

export const logStreamsRouter = router({
  list: tenantProcedure("viewer")
    .meta({ openapi: { method: "GET", path: base, tags, summary: "List log streams", protect: true } })
    .input(ListLogStreamsInput)
    .output(LogStreamPage)
    .query(async ({ ctx, input }) => {
      const context = serviceContext(ctx);
      const page = await listStreams(context, pageRequest(input));
      const head = await headOf(context.db.sql, ctx.tenant.id);
      return envelope(ctx.url, input, page, (row) => presentStream(row, head));
    }),

  create: tenantProcedure("admin")
    .meta({
      successStatus: 201,
      stepUp: true,
      openapi: {
        method: "POST",
        path: base,
        tags,
        summary: "Create a log stream",
        description:
          "Streams the tenant's audit log to a receiver (`type`: s3, datadog, splunk_hec, https, syslog; `config` per type, see docs/log-streams.md " +
          '"Log streams"). Needs a step-up in the last 10 minutes (else 401 `step_up_required`): it sends the log somewhere new. ' +
          "`start_from`: `now` (default), `oldest` (history first, then live) or a date. Secrets are never returned (`<field>_set`). " +
          "Emits `log_stream.created`.",
        protect: true,
      },
    })
    .input(CreateLogStreamInput)
    .output(LogStream)
    .mutation(async ({ ctx, input }) => {
      const stream = await createStream(serviceContext(ctx), input);
      return created(ctx, `/api/v1/tenants/${ctx.tenant.id}/log-streams/${stream.id}`, stream);
    }),

  get: tenantProcedure("viewer")
    .meta({ openapi: { method: "GET", path: one, tags, summary: "Get a log stream", protect: true } })
    .input(LogStreamPathInput)
    .output(LogStream)
    .query(async ({ ctx, input }) => {
      const context = serviceContext(ctx);
      return presentStream(await getStream(context, input.stream_id), await headOf(context.db.sql, ctx.tenant.id));
    }),

  update: tenantProcedure("admin")
    .meta({
      stepUp: true,
      openapi: {
        method: "PATCH",
        path: one,
        tags,
        summary: "Update, pause or resume a log stream",
        description:
          "`config` is merged over the stored one (a secret left out is kept; a field sent as null is removed) and needs a step-up " +
          "in the last 10 minutes (else 401 `step_up_required`, nothing changed); `name`, `event_types` and `enabled` do not. " +
          "A stored secret never follows a stream to a new destination: a change of s3 `bucket`/`region`/`endpoint`, datadog " +
          "`site`/`endpoint` or splunk_hec/https `url` must send the secret again (400 naming `config.<secret>` otherwise), except " +
          "https's optional `secret`, which is dropped (`secret_set: false`; the event says `secret_dropped`). " +
          "Pausing keeps the cursor; resuming sends on from it. Emits `log_stream.updated` and `log_stream.enabled`/`.disabled`.",
        protect: true,
      },
    })
    .input(UpdateLogStreamInput)
    .output(LogStream)
    .mutation(async ({ ctx, input }) => updateStream(serviceContext(ctx), input)),

  delete: tenantProcedure("admin")
    .meta({
      successStatus: 204,
      openapi: {
        method: "DELETE",
        path: one,
        tags,
        summary: "Delete a log stream",
        description: "Emits `log_stream.deleted`.",
        protect: true,
      },
    })
    .input(LogStreamPathInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await deleteStream(serviceContext(ctx), input.stream_id);
      noContent(ctx);
    }),

  test: tenantProcedure("admin")
    .meta({
      openapi: {
        method: "POST",
        path: `${one}/test`,
        tags,
        summary: "Send a test batch",
        description:
          "Sends one batch holding a single `log_stream.test` event (range 0-0, marked `test`) with the stored config, and answers " +
          "what the receiver said. The cursor does not move; the attempt shows in the stream's batches.",
        protect: true,
      },
    })
    .input(LogStreamPathInput)
    .output(LogStreamTestResult)
    .mutation(async ({ ctx, input }) => sendTestBatch(serviceContext(ctx), input.stream_id)),

  batches: tenantProcedure("viewer")
    .meta({
      openapi: {
        method: "GET",
        path: `${one}/batches`,
        tags,
        summary: "List a stream's last batches",
        description: "Newest first: each attempt's range, events, outcome, duration and the receiver's answer (the newest 200 are kept).",
        protect: true,
      },
    })
    .input(ListBatchesInput)
    .output(LogStreamBatchPage)
    .query(async ({ ctx, input }) =>
      envelope(ctx.url, input, await listBatches(serviceContext(ctx), input.stream_id, pageRequest(input)), presentBatch),
    ),
});
