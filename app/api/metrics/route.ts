import { metricsResponse } from "@/server/ops/scrape";

export const dynamic = "force-dynamic";

export { metricsResponse as GET };
