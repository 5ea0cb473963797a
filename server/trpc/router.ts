/** The application router: every domain's router, served to the console and as REST. */
import { router } from "./init.ts";
import { tenantsRouter } from "../tenants/router.ts";

export const appRouter = router({
  tenants: tenantsRouter,
});

export type AppRouter = typeof appRouter;
