/** The guided setup's tRPC endpoint: the same procedures, with the setup cookie as the only credential. */
import { handleConsoleTrpc } from "@/server/app/console-trpc";
import { createSetupContext } from "@/server/setup-links/context";

export const dynamic = "force-dynamic";

const handler = (request: Request) => handleConsoleTrpc(request, "/api/setup/trpc", createSetupContext);

export { handler as GET, handler as POST };
