// GET /downloads/memory-hq-client.tgz — the client package (createMemoryHq and the memory-hq-mcp stdio bridge)
// at this server's version, for `npm install http://HOST/downloads/memory-hq-client.tgz`. No authentication:
// it holds the API's shape, no data. Built from the contracts on the first request, then kept.
import { sdkTarball, SDK_PACKAGE_NAME } from "@/lib/sdk/package/build";
import { measured } from "@/lib/metrics/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = measured("/downloads/memory-hq-client.tgz", async () => {
  const { version, tarball } = sdkTarball();
  return new Response(new Uint8Array(tarball), {
    headers: {
      "content-type": "application/gzip",
      "content-length": String(tarball.length),
      "content-disposition": `attachment; filename="${SDK_PACKAGE_NAME}-${version}.tgz"`,
      "x-memory-hq-version": version,
      // the same address serves the next version after an upgrade: caches must ask again
      "cache-control": "no-cache",
    },
  });
});
