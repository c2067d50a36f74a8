/** Ready-to-paste snippets for connecting an agent, with the console's real address and (when known) the key. */

export const KEY_PLACEHOLDER = "mhq_…";

export function curlSnippet(baseUrl: string, key = KEY_PLACEHOLDER): string {
  return [
    `curl -H "Authorization: Bearer ${key}" ${baseUrl}/api/v1/agents/me`,
    "",
    `curl -X POST -H "Authorization: Bearer ${key}" -H "content-type: application/json" \\`,
    `  -d '{"message": "What did we decide about the Saturday window?"}' ${baseUrl}/api/v1/retrieve`,
  ].join("\n");
}

export function typescriptSnippet(baseUrl: string, key = KEY_PLACEHOLDER): string {
  return [
    `import { createMemoryHq } from "memory-hq/sdk";`,
    "",
    `const hq = createMemoryHq({ baseUrl: "${baseUrl}", key: process.env.MEMORY_HQ_KEY ?? "${key}" });`,
    `const { agent } = await hq.agents.get({ params: { agentId: "me" } });`,
    `await hq.memories.write({`,
    `  params: { agentId: "me" },`,
    `  body: { tier: "core", category: "client", title: "Pelican Dental books mornings only", confidence: 0.9 },`,
    `});`,
    `const { items, context } = await hq.retrieval.retrieve({ body: { message: "When does Pelican Dental want appointments?" } });`,
  ].join("\n");
}

/** For Claude Desktop (claude_desktop_config.json), Cursor (.cursor/mcp.json) and other stdio clients. */
export function mcpStdioSnippet(baseUrl: string, key = KEY_PLACEHOLDER): string {
  return JSON.stringify(
    { mcpServers: { "memory-hq": { command: "npx", args: ["memory-hq-mcp"], env: { MEMORY_HQ_URL: baseUrl, MEMORY_HQ_KEY: key } } } },
    null,
    2,
  );
}

/** For clients that speak Streamable HTTP themselves. */
export function mcpHttpSnippet(baseUrl: string, key = KEY_PLACEHOLDER): string {
  return JSON.stringify(
    { mcpServers: { "memory-hq": { type: "http", url: `${baseUrl}/api/mcp`, headers: { Authorization: `Bearer ${key}` } } } },
    null,
    2,
  );
}
