// POST /api/mcp — the agent's memory as Model Context Protocol tools (Streamable HTTP, stateless, Bearer mhq_… key)
// GET, DELETE /api/mcp — 405: a stateless server keeps no stream or session to open or close
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { authenticateKey } from "@/lib/auth/authenticate";
import { ApiError } from "@/lib/http/errors";
import { errorResponse, json } from "@/lib/http/route";
import { buildMcpServer } from "@/lib/mcp/server";
import { measured } from "@/lib/metrics/http";

export const dynamic = "force-dynamic";

export const POST = measured("/api/mcp", async (req: Request): Promise<Response> => {
  let caller;
  try {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "");
    if (!m) throw new ApiError("unauthorized", "Send an agent key as 'Authorization: Bearer mhq_…'");
    caller = await authenticateKey(m[1]!);
    if (caller.type !== "agent") throw new ApiError("forbidden", "The MCP endpoint serves agents: use an agent key (mhq_…)");
  } catch (err) {
    return errorResponse(err);
  }
  // one server and transport per request: nothing is kept between calls, so any instance can answer
  const server = buildMcpServer(caller);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    return await transport.handleRequest(req);
  } catch (err) {
    return errorResponse(err);
  } finally {
    void server.close();
  }
});

const notAllowed = measured("/api/mcp", async () =>
  json({ error: { code: "method_not_allowed", message: "POST JSON-RPC messages to /api/mcp; this server keeps no sessions" } }, 405),
);

export const GET = notAllowed;
export const DELETE = notAllowed;
