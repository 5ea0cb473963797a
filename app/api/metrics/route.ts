import { metricsResponse } from "@/server/ops/metrics";

export const dynamic = "force-dynamic";

export { metricsResponse as GET };
