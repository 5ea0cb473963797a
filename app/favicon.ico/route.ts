/**
 * `/favicon.ico`, which browsers and uptime monitors ask for by that name whatever the page
 * declares: the app's icon (app/icon.svg), served as SVG, which every current browser takes there.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";

export const dynamic = "force-static";

let icon: Promise<Buffer> | undefined;

export async function GET() {
  icon ??= readFile(path.join(process.cwd(), "app", "icon.svg"));
  return new Response(new Uint8Array(await icon), {
    headers: { "Content-Type": "image/svg+xml", "Cache-Control": "public, max-age=86400" },
  });
}
