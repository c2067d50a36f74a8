// POST /api/mcp — the agent's memory as Model Context Protocol tools, resources and a prompt
// (Streamable HTTP, stateless, Bearer mhq_… key).
// GET, DELETE /api/mcp — 405 with Allow: a stateless server keeps no stream or session to open or close.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { authenticateKey } from "@/lib/auth/authenticate";
import { getConfig } from "@/lib/config";
import { admitted } from "@/lib/http/admission";
import { readJsonBody } from "@/lib/http/body";
import { ApiError } from "@/lib/http/errors";
import { errorResponse, json } from "@/lib/http/route";
import { buildMcpServer } from "@/lib/mcp/server";
import { measured } from "@/lib/metrics/http";

export const dynamic = "force-dynamic";

/** Most JSON-RPC messages one request may carry: a batch runs in the one admission slot its request was given. */
export const MAX_MESSAGES_PER_REQUEST = 20;

// Through the API's admission queue (429 when full) and body limit (413 over MAX_BODY_BYTES, before
// anything is parsed), counted in the request metrics under /api/mcp.
export const POST = measured(
  "/api/mcp",
  admitted(true, async (req: Request): Promise<Response> => {
    let caller;
    let body: unknown;
    try {
      // plain bearer auth: no OAuth (the discovery documents answer 404), the key is used as given
      const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "");
      if (!m) throw new ApiError("unauthorized", "Send an agent key as 'Authorization: Bearer mhq_…'");
      caller = await authenticateKey(m[1]!);
      if (caller.type !== "agent") throw new ApiError("forbidden", "The MCP endpoint serves agents: use an agent key (mhq_…)");
      body = await readJsonBody(req, getConfig().MAX_BODY_BYTES);
      if (Array.isArray(body) && body.length > MAX_MESSAGES_PER_REQUEST) {
        throw new ApiError(
          "payload_too_large",
          `One request carries at most ${MAX_MESSAGES_PER_REQUEST} JSON-RPC messages (got ${body.length}); send the rest in further requests`,
          { limit: MAX_MESSAGES_PER_REQUEST, count: body.length },
        );
      }
    } catch (err) {
      return errorResponse(err);
    }
    // one server and transport per request: nothing is kept between calls, so any instance can answer
    const server = buildMcpServer(caller);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      return await transport.handleRequest(req, { parsedBody: body });
    } catch (err) {
      return errorResponse(err);
    } finally {
      void server.close();
    }
  }),
);

const notAllowed = measured("/api/mcp", async () => {
  const res = json(
    { error: { code: "method_not_allowed", message: "POST JSON-RPC messages to /api/mcp; this server keeps no sessions or streams" } },
    405,
  );
  res.headers.set("Allow", "POST, OPTIONS");
  return res;
});

export const GET = notAllowed;
export const DELETE = notAllowed;
