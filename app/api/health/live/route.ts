import { liveResponse } from "@/server/ops/health";

export const dynamic = "force-dynamic";

export function GET() {
  return liveResponse();
}
