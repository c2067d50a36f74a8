// GET /api/metrics — this instance's metrics in the Prometheus text format (Bearer METRICS_TOKEN or ADMIN_API_KEY)
//
// Outside the admission queue on purpose: the answer is read from this process's memory (no database
// connection, well under a millisecond), and it is most needed exactly when the queue is full — a
// scrape refused with 429 then would hide the overload it should show.
import { errorBody } from "@/lib/http/errors";
import { measured } from "@/lib/metrics/http";
import { exposition, scrapeAuthorized } from "@/lib/metrics/scrape";

export const dynamic = "force-dynamic";

export const GET = measured("/api/metrics", async (req: Request) => {
  if (!scrapeAuthorized(req.headers.get("authorization"))) {
    return Response.json(errorBody("unauthorized", "Send 'Authorization: Bearer <METRICS_TOKEN or ADMIN_API_KEY>'"), {
      status: 401,
      headers: { "www-authenticate": 'Bearer realm="metrics"' },
    });
  }
  const { contentType, body } = await exposition();
  return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
});
