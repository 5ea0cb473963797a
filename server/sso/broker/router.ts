/** Applications of the OAuth broker over REST at /sso/applications: platform operators only. */
import { z } from "zod";
import { router } from "../../trpc/init.ts";
import { operatorProcedure, operatorReadProcedure } from "../../trpc/procedures.ts";
import { created, noContent, serviceContext } from "../../trpc/context.ts";
import { envelope, pageRequest } from "../../contract/pagination.ts";
import {
  CreateSsoApplicationInput,
  ListSsoApplicationsInput,
  SsoApplication,
  SsoApplicationPage,
  SsoApplicationPathInput,
  SsoApplicationWithSecret,
  UpdateSsoApplicationInput,
} from "./schemas.ts";
import {
  createApplication,
  deleteApplication,
  getApplication,
  listApplications,
  presentApplication,
  rotateApplicationSecret,
  updateApplication,
} from "./applications.ts";

const tags = ["SSO applications"];
const base = "/sso/applications";
const one = `${base}/{application_id}`;

export const ssoApplicationsRouter = router({
  list: operatorReadProcedure
    .meta({ openapi: { method: "GET", path: base, tags, summary: "List OAuth broker applications", protect: true } })
    .input(ListSsoApplicationsInput)
    .output(SsoApplicationPage)
    .query(async ({ ctx, input }) =>
      envelope(ctx.url, input, await listApplications(serviceContext(ctx), pageRequest(input)), presentApplication),
    ),

  create: operatorProcedure
    .meta({
      successStatus: 201,
      openapi: {
        method: "POST",
        path: base,
        tags,
        summary: "Register an OAuth broker application",
        description:
          "The reply carries `client_secret` once (only its SHA-256 is stored). `redirect_uris` are matched exactly by " +
          "/api/sso/authorize. Emits `sso.application_created`.",
        protect: true,
      },
    })
    .input(CreateSsoApplicationInput)
    .output(SsoApplicationWithSecret)
    .mutation(async ({ ctx, input }) => {
      const { row, secret } = await createApplication(serviceContext(ctx), input);
      return created(ctx, `/api/v1${base}/${row.id}`, { ...presentApplication(row), client_secret: secret });
    }),

  get: operatorReadProcedure
    .meta({ openapi: { method: "GET", path: one, tags, summary: "Get an OAuth broker application", protect: true } })
    .input(SsoApplicationPathInput)
    .output(SsoApplication)
    .query(async ({ ctx, input }) => presentApplication(await getApplication(serviceContext(ctx), input.application_id))),

  update: operatorProcedure
    .meta({
      openapi: {
        method: "PATCH",
        path: one,
        tags,
        summary: "Rename an application or replace its redirect URIs",
        description: "Emits `sso.application_updated` with the changes.",
        protect: true,
      },
    })
    .input(UpdateSsoApplicationInput)
    .output(SsoApplication)
    .mutation(async ({ ctx, input }) => presentApplication(await updateApplication(serviceContext(ctx), input))),

  delete: operatorProcedure
    .meta({
      successStatus: 204,
      openapi: {
        method: "DELETE",
        path: one,
        tags,
        summary: "Delete an OAuth broker application",
        description: "Its pending sign-ins, codes and access tokens go with it. Emits `sso.application_deleted`.",
        protect: true,
      },
    })
    .input(SsoApplicationPathInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await deleteApplication(serviceContext(ctx), input.application_id);
      noContent(ctx);
    }),

  rotateSecret: operatorProcedure
    .meta({
      openapi: {
        method: "POST",
        path: `${one}/rotate-secret`,
        tags,
        summary: "Rotate an application's client secret",
        description: "Returns the new `client_secret` once; the old one stops working at once. Emits `sso.application_secret_rotated`.",
        protect: true,
      },
    })
    .input(SsoApplicationPathInput)
    .output(SsoApplicationWithSecret)
    .mutation(async ({ ctx, input }) => {
      const { row, secret } = await rotateApplicationSecret(serviceContext(ctx), input.application_id);
      return { ...presentApplication(row), client_secret: secret };
    }),
});
