import { handleConsoleTrpc } from "@/server/app/console-trpc";
import { createConsoleContext } from "@/server/trpc/create-context";

export const dynamic = "force-dynamic";

const handler = (request: Request) => handleConsoleTrpc(request, "/api/trpc", createConsoleContext);

export { handler as GET, handler as POST };
