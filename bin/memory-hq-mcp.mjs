#!/usr/bin/env node
// memory-hq-mcp — a stdio MCP server for desktop clients (Claude Desktop, Cursor, …) that forwards every
// request to a Memory HQ server's Streamable HTTP endpoint (POST /api/mcp) with the agent's key.
//
//   MEMORY_HQ_URL   the server's base URL, e.g. https://memory.example.com (default http://localhost:3000)
//   MEMORY_HQ_KEY   the agent's key, mhq_…
//
// The tool list and every call are the server's: the bridge adds nothing and keeps no state.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const fail = (message) => {
  process.stderr.write(`memory-hq-mcp: ${message}\n`);
  process.exit(1);
};

const base = process.env.MEMORY_HQ_URL || "http://localhost:3000";
const key = process.env.MEMORY_HQ_KEY;
if (!key) fail("set MEMORY_HQ_KEY to the agent's key (mhq_…)");

let endpoint;
try {
  endpoint = new URL("/api/mcp", base);
} catch {
  fail(`MEMORY_HQ_URL is not a URL: ${base}`);
}

const upstream = new Client({ name: "memory-hq-mcp", version: "1.0.0" });
try {
  await upstream.connect(
    new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
  );
} catch (err) {
  fail(`cannot reach ${endpoint.href}: ${err instanceof Error ? err.message : String(err)}`);
}

const server = new Server(
  { name: "memory-hq", version: "1.0.0" },
  { capabilities: { tools: {} }, instructions: upstream.getInstructions() },
);
server.setRequestHandler(ListToolsRequestSchema, (request) => upstream.listTools(request.params));
server.setRequestHandler(CallToolRequestSchema, (request) => upstream.callTool(request.params));

const stdio = new StdioServerTransport();
stdio.onclose = () => void upstream.close();
await server.connect(stdio);
