/** Ready-to-paste snippets for connecting an agent, with the console's real address and (when known) the key. */

export const KEY_PLACEHOLDER = "mhq_…";

/** Where this server hands out its client package (createMemoryHq and the memory-hq-mcp bridge). */
export function clientPackageUrl(baseUrl: string): string {
  return `${baseUrl}/downloads/memory-hq-client.tgz`;
}

export function curlSnippet(baseUrl: string, key = KEY_PLACEHOLDER): string {
  return [
    `curl -H "Authorization: Bearer ${key}" ${baseUrl}/api/v1/agents/me`,
    "",
    `curl -X POST -H "Authorization: Bearer ${key}" -H "content-type: application/json" \\`,
    `  -d '{"message": "What does Sunrise Plumbing want after 5pm?"}' ${baseUrl}/api/v1/retrieve`,
  ].join("\n");
}

/** Installs the client package from this server into the current project. */
export function installSnippet(baseUrl: string): string {
  return `npm install ${clientPackageUrl(baseUrl)}`;
}

/** A plain ES module (agent.mjs, or TypeScript) that writes a memory and finds it again. */
export function typescriptSnippet(baseUrl: string, key = KEY_PLACEHOLDER): string {
  return [
    `// ${installSnippet(baseUrl)}`,
    `import { createMemoryHq } from "memory-hq-client";`,
    "",
    `const hq = createMemoryHq({ baseUrl: "${baseUrl}", apiKey: process.env.MEMORY_HQ_KEY ?? "${key}" });`,
    `const { memory } = await hq.writeMemory({`,
    `  tier: "core", category: "client", title: "Sunrise Plumbing wants texts, not calls, after 5pm", confidence: 0.9,`,
    `});`,
    `const { items } = await hq.retrieve({ message: "How do I reach Sunrise Plumbing after 5pm?", scopes: ["memories"] });`,
    `console.log(memory.id, items.map((i) => i.title));`,
  ].join("\n");
}

/**
 * For Claude Desktop (claude_desktop_config.json), Cursor (.cursor/mcp.json) and other clients that start
 * MCP servers over stdio: the package's memory-hq-mcp bridge, fetched from this server by npx.
 */
export function mcpStdioSnippet(baseUrl: string, key = KEY_PLACEHOLDER): string {
  return JSON.stringify(
    {
      mcpServers: {
        "memory-hq": {
          command: "npx",
          args: ["-y", "--package", clientPackageUrl(baseUrl), "memory-hq-mcp"],
          env: { MEMORY_HQ_URL: baseUrl, MEMORY_HQ_KEY: key },
        },
      },
    },
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
