import "server-only";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { AgentCaller } from "@/lib/auth/caller";
import { errorBody } from "@/lib/http/errors";
import { toApiError } from "@/lib/http/route";
import { toolsFor } from "./tools";

const wire = (value: unknown) => JSON.parse(JSON.stringify(value ?? {})) as Record<string, unknown>;

/** An MCP server for one request of one agent: only the tools its role may use are registered. */
export function buildMcpServer(caller: AgentCaller): McpServer {
  const server = new McpServer(
    { name: "memory-hq", version: "1.0.0" },
    {
      capabilities: { tools: {} },
      instructions:
        "Memory HQ is your long-term memory. Call boot when you start, retrieve before answering about the past, " +
        "memory_write when you learn something worth keeping, and keep your scratchpad current.",
    },
  );
  for (const t of toolsFor(caller)) {
    server.registerTool(t.name, { description: t.description, inputSchema: t.input }, async (args: unknown) => {
      try {
        const result = wire(await t.run(caller, t.input.parse(args ?? {})));
        return { content: [{ type: "text" as const, text: JSON.stringify(result) }], structuredContent: result };
      } catch (err) {
        // refusals come back as the API's error body, so the model sees the same code and message
        const e = toApiError(err);
        const body = errorBody(e.code, e.message, e.details);
        return { isError: true, content: [{ type: "text" as const, text: JSON.stringify(body) }], structuredContent: body };
      }
    });
  }
  return server;
}
