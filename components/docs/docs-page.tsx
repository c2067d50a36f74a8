"use client";

import Link from "next/link";
import { useOrigin } from "@/components/agents/key-snippets";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { CodeBlock } from "./code-block";
import { OpenApiReference } from "./openapi-reference";
import { clientPackageUrl, curlSnippet, installSnippet, mcpHttpSnippet, mcpStdioSnippet, typescriptSnippet } from "./snippets";

/** Getting started for agent developers, and the API reference generated from the server's contracts. */
export function DocsPage() {
  const origin = useOrigin();
  return (
    <div className="space-y-6">
      <PageHeader
        title="Docs"
        description="Connect an agent to its memory: issue a key, call the API, use the TypeScript client or plug in over MCP."
      />

      <Card>
        <CardHeader title="1. Issue a key" description="Each agent authenticates with its own key." />
        <CardBody className="space-y-2 text-sm text-slate-700">
          <p>
            Open the agent on the <Link href="/agents" className="font-medium text-indigo-700 hover:underline">Agents</Link> page and
            choose <strong>Issue key</strong>. The key (<code className="font-mono">mhq_…</code>) is shown once, with these snippets
            filled in and a button to test it. Isolated agents (code, deploy, migrations) get no memory at all.
          </p>
        </CardBody>
      </Card>

      <Card>
        <CardHeader title="2. Call the API" description="Every call sends the key as a bearer token; {agentId} may be me." />
        <CardBody>
          <CodeBlock code={curlSnippet(origin)} label="curl example" />
        </CardBody>
      </Card>

      <Card>
        <CardHeader
          title="3. The TypeScript client"
          description="Every endpoint as a method typed by this server's contracts; no dependencies; errors carry the API's code."
        />
        <CardBody className="space-y-4 text-sm text-slate-700">
          <div className="space-y-2">
            <p>
              This server hands out its client package at <code className="font-mono">{clientPackageUrl(origin)}</code>, at its own
              version. Install it in the agent&apos;s project:
            </p>
            <CodeBlock code={installSnippet(origin)} label="Install the client package" testId="docs-install" />
          </div>
          <div className="space-y-2">
            <p>Then, in an ES module (agent.mjs, or TypeScript):</p>
            <CodeBlock code={typescriptSnippet(origin)} label="TypeScript example" testId="docs-ts" />
          </div>
        </CardBody>
      </Card>

      <Card>
        <CardHeader
          title="4. MCP: Claude Desktop, Cursor and other clients"
          description="The agent's memory as tools (boot, retrieve, memory_write, scratchpad, knowledge base, contacts, decisions, notes), listed by its role."
        />
        <CardBody className="space-y-4 text-sm text-slate-700">
          <div className="space-y-2">
            <p>
              Clients that speak Streamable HTTP connect to <code className="font-mono">{origin}/api/mcp</code> directly:
            </p>
            <CodeBlock code={mcpHttpSnippet(origin)} label="MCP configuration (HTTP)" testId="docs-mcp-http" />
          </div>
          <div className="space-y-2">
            <p>
              Desktop clients that start MCP servers over stdio run the client package&apos;s bridge{" "}
              <code className="font-mono">memory-hq-mcp</code> (npx fetches the package from this server). Put this in Claude
              Desktop&apos;s <code className="font-mono">claude_desktop_config.json</code> or Cursor&apos;s{" "}
              <code className="font-mono">.cursor/mcp.json</code>:
            </p>
            <CodeBlock code={mcpStdioSnippet(origin)} label="MCP configuration (stdio through the client package)" testId="docs-mcp-stdio" />
          </div>
        </CardBody>
      </Card>

      <Card>
        <CardHeader title="API reference" description="Generated from the same contracts the server validates every request with." />
        <CardBody>
          <OpenApiReference />
        </CardBody>
      </Card>
    </div>
  );
}
