"use client";

import { useSyncExternalStore } from "react";
import { CodeBlock } from "@/components/docs/code-block";
import { curlSnippet, mcpHttpSnippet, mcpStdioSnippet, typescriptSnippet } from "@/components/docs/snippets";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Tabs } from "@/components/ui/tabs";
import { errorMessage } from "@/lib/console/api";
import { useTestAgentKey } from "@/lib/console/hooks/agents";

const noSubscribe = () => () => {};
/** The address this console is served from: the address agents reach the API at. */
export function useOrigin(): string {
  return useSyncExternalStore(noSubscribe, () => window.location.origin, () => "");
}

/** A just-issued key: snippets that use it as they are, and a check that it works. */
export function KeySnippets({ issuedKey }: { issuedKey: string }) {
  const origin = useOrigin();
  // the key alone, as an agent would send it: the answer names the agent it belongs to
  const test = useTestAgentKey(issuedKey);
  return (
    <div className="space-y-3">
      <Tabs
        label="Connect the agent"
        items={[
          { id: "curl", label: "curl", content: <CodeBlock code={curlSnippet(origin, issuedKey)} label="curl snippet" testId="snippet-curl" /> },
          { id: "mcp", label: "MCP (stdio)", content: <CodeBlock code={mcpStdioSnippet(origin, issuedKey)} label="MCP configuration (Claude Desktop, Cursor: stdio through the client package)" testId="snippet-mcp" /> },
          { id: "mcp-http", label: "MCP (HTTP)", content: <CodeBlock code={mcpHttpSnippet(origin, issuedKey)} label="MCP configuration (Streamable HTTP)" testId="snippet-mcp-http" /> },
          { id: "ts", label: "TypeScript", content: <CodeBlock code={typescriptSnippet(origin, issuedKey)} label="TypeScript: install the client package from this server, then" testId="snippet-ts" /> },
        ]}
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="secondary" size="sm" onClick={() => test.mutate()} loading={test.isPending}>
          Test this key
        </Button>
        {test.isSuccess && (
          <span role="status" className="text-sm text-emerald-700">
            The key works: it answers as {test.data.agent.name}.
          </span>
        )}
      </div>
      {test.isError && <Alert tone="error">{errorMessage(test.error)}</Alert>}
    </div>
  );
}
