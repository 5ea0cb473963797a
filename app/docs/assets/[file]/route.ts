import { assetVersion, readAsset } from "../../swagger-assets";

export async function GET(req: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  const asset = await readAsset(file);
  if (!asset) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  // Versioned URLs never change content; anything else must be revalidated.
  const current = new URL(req.url).searchParams.get("v") === (await assetVersion());
  return new Response(new Uint8Array(asset.body), {
    headers: {
      "Content-Type": asset.contentType,
      "Cache-Control": current ? "public, max-age=31536000, immutable" : "no-cache",
    },
  });
}
