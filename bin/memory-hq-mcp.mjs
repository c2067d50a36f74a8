#!/usr/bin/env node
// The stdio MCP bridge of the client package (packages/client/bin/memory-hq-mcp.mjs), runnable from a
// checkout: node bin/memory-hq-mcp.mjs with MEMORY_HQ_URL and MEMORY_HQ_KEY.
import "../packages/client/bin/memory-hq-mcp.mjs";
