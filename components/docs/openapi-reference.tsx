"use client";

import { useMemo, useState } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { ErrorState } from "@/components/ui/error-state";
import { Input } from "@/components/ui/input";
import { LoadingState } from "@/components/ui/loading-state";
import { useOpenApiDocument } from "@/lib/client/hooks/docs";

interface Operation {
  method: string;
  path: string;
  summary: string;
  permission: string;
  parameters: { name: string; in: string; required: boolean }[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

const METHOD_TONE: Record<string, BadgeTone> = { get: "blue", post: "green", put: "amber", patch: "violet", delete: "red" };

function operationsOf(doc: Record<string, unknown>): Operation[] {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
  return Object.entries(paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, op]) => ({
      method,
      path,
      summary: String(op.summary ?? ""),
      permission: String(op["x-permission"] ?? ""),
      parameters: (op.parameters ?? []) as Operation["parameters"],
      requestBody: (op.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined)?.content?.["application/json"]?.schema,
      responses: (op.responses ?? {}) as Operation["responses"],
    })),
  );
}

/** The OpenAPI document the server generates from its contracts, as a searchable reference. */
export function OpenApiReference() {
  const doc = useOpenApiDocument();
  const [filter, setFilter] = useState("");
  const operations = useMemo(() => (doc.data ? operationsOf(doc.data) : []), [doc.data]);
  const shown = operations.filter((op) => `${op.method} ${op.path} ${op.summary}`.toLowerCase().includes(filter.trim().toLowerCase()));

  if (doc.isPending) return <LoadingState label="Loading the API reference…" />;
  if (doc.isError) return <ErrorState error={doc.error} onRetry={() => doc.refetch()} retrying={doc.isFetching} />;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Input
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          placeholder="Filter by path or summary"
          aria-label="Filter endpoints"
          className="max-w-sm"
        />
        <a href="/api/v1/openapi.json" className="text-sm font-medium text-indigo-700 hover:underline">
          openapi.json
        </a>
      </div>
      <ul className="divide-y divide-slate-200 rounded-md border border-slate-200" aria-label="Endpoints">
        {shown.map((op) => {
          const success = Object.entries(op.responses).find(([status]) => status !== "default");
          const responseSchema = success ? Object.values(success[1].content ?? {})[0]?.schema : undefined;
          return (
            <li key={`${op.method} ${op.path}`}>
              <details className="group">
                <summary className="flex cursor-pointer list-none flex-wrap items-center gap-2 px-4 py-2.5 hover:bg-slate-50">
                  <Badge tone={METHOD_TONE[op.method] ?? "neutral"} className="w-16 justify-center font-mono uppercase">
                    {op.method}
                  </Badge>
                  <code className="font-mono text-sm text-slate-900">{op.path}</code>
                  <span className="min-w-0 flex-1 truncate text-sm text-slate-500">{op.summary}</span>
                </summary>
                <div className="space-y-3 border-t border-slate-100 bg-slate-50/60 px-4 py-3 text-sm">
                  <p className="text-slate-700">{op.summary}</p>
                  <p className="text-slate-500">
                    Who may call: <code className="font-mono text-slate-700">{op.permission}</code>
                  </p>
                  {op.parameters.length > 0 && (
                    <p className="text-slate-500">
                      Parameters:{" "}
                      {op.parameters.map((p) => (
                        <code key={`${p.in}-${p.name}`} className="mr-2 font-mono text-slate-700">
                          {p.name}
                          {p.required ? "" : "?"} ({p.in})
                        </code>
                      ))}
                    </p>
                  )}
                  {op.requestBody !== undefined && <Schema title="Request body" schema={op.requestBody} />}
                  {responseSchema !== undefined && <Schema title={`Response ${success![0]}`} schema={responseSchema} />}
                </div>
              </details>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function Schema({ title, schema }: { title: string; schema: unknown }) {
  return (
    <div>
      <h4 className="mb-1 font-medium text-slate-700">{title}</h4>
      <pre className="max-h-80 overflow-auto rounded border border-slate-200 bg-white p-3 font-mono text-xs text-slate-800">
        {JSON.stringify(schema, null, 2)}
      </pre>
    </div>
  );
}
