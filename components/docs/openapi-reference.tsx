"use client";

import { useMemo, useState } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { ErrorState } from "@/components/ui/error-state";
import { Input } from "@/components/ui/input";
import { LoadingState } from "@/components/ui/loading-state";
import { useOpenApiDocument } from "@/lib/console/hooks/docs";
import { WORKING_MAX_CHARS } from "@/lib/documents/limits";
import { CATEGORIES_BY_TIER, LOW_CONFIDENCE, LOW_CONFIDENCE_TTL_DAYS, MIN_CONFIDENCE } from "@/lib/memories/rules";
import { fieldsOf, referencedComponents, type FieldRow, type JsonSchema } from "./schema-fields";

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface Operation {
  method: string;
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  whoMayCall: string;
  rules: { code: string; status: number; when: string }[];
  parameters: Parameter[];
  requestBody?: JsonSchema;
  examples: { name: string; summary: string; value: unknown }[];
  responses: [string, { description?: string; content?: Record<string, { schema?: JsonSchema }> }][];
}

const METHOD_TONE: Record<string, BadgeTone> = { get: "blue", post: "green", put: "amber", patch: "violet", delete: "red" };
const METHODS = ["get", "post", "put", "patch", "delete"];

function operationsOf(doc: Record<string, unknown>): Operation[] {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => {
        const body = (op.requestBody as { content?: Record<string, { schema?: JsonSchema; examples?: Record<string, { summary?: string; value: unknown }> }> } | undefined)
          ?.content?.["application/json"];
        return {
          method,
          path,
          operationId: String(op.operationId ?? ""),
          tag: String((op.tags as string[] | undefined)?.[0] ?? ""),
          summary: String(op.summary ?? ""),
          whoMayCall: String(op["x-who-may-call"] ?? ""),
          rules: (op["x-rules"] ?? []) as Operation["rules"],
          parameters: (op.parameters ?? []) as Parameter[],
          requestBody: body?.schema,
          examples: Object.entries(body?.examples ?? {}).map(([name, e]) => ({ name, summary: e.summary ?? name, value: e.value })),
          responses: Object.entries((op.responses ?? {}) as Record<string, Operation["responses"][number][1]>),
        };
      }),
  );
}

// what an integration reads first comes first; the console's own sign-in endpoints (the tag's name is
// part of the document) come last
const LAST_TAGS = ["Sign-in and HQ users"];

interface TagGroup {
  name: string;
  description: string;
  operations: Operation[];
}

/** The operations by tag, in the document's tag order with the sign-in internals last. */
function groupsOf(doc: Record<string, unknown>, operations: Operation[]): TagGroup[] {
  const tags = ((doc.tags ?? []) as { name: string; description?: string }[]).map((t) => ({ name: t.name, description: t.description ?? "" }));
  for (const op of operations) if (!tags.some((t) => t.name === op.tag)) tags.push({ name: op.tag, description: "" });
  const rank = (name: string) => (LAST_TAGS.includes(name) ? 1 : 0);
  return tags
    .map((t, i) => ({ ...t, i }))
    .sort((a, b) => rank(a.name) - rank(b.name) || a.i - b.i)
    .map(({ name, description }) => ({ name, description, operations: operations.filter((op) => op.tag === name) }))
    .filter((g) => g.operations.length > 0);
}

const anchor = (tag: string) => `api-${tag.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;

/**
 * The OpenAPI document the server generates from its contracts, as a reference a person reads: a
 * table of contents by area, then each area's endpoints (each opens to its fields and errors).
 */
export function OpenApiReference() {
  const doc = useOpenApiDocument();
  const [filter, setFilter] = useState("");
  const operations = useMemo(() => (doc.data ? operationsOf(doc.data) : []), [doc.data]);
  const components = useMemo(
    () => ((doc.data?.components as { schemas?: Record<string, JsonSchema> } | undefined)?.schemas ?? {}),
    [doc.data],
  );
  const needle = filter.trim().toLowerCase();
  const shown = operations.filter((op) => `${op.method} ${op.path} ${op.summary} ${op.operationId} ${op.tag}`.toLowerCase().includes(needle));
  const groups = useMemo(() => (doc.data ? groupsOf(doc.data, shown) : []), [doc.data, shown]);

  if (doc.isPending) return <LoadingState label="Loading the API reference…" />;
  if (doc.isError) return <ErrorState error={doc.error} onRetry={() => doc.refetch()} retrying={doc.isFetching} />;
  return (
    <div className="space-y-4">
      <CallerRules />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Input
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          placeholder="Filter by path, summary or area"
          aria-label="Filter endpoints"
          className="w-full max-w-sm"
        />
        <a href="/api/v1/openapi.json" className="text-sm font-medium text-indigo-700 hover:underline">
          openapi.json (OpenAPI 3.1, for code generators)
        </a>
      </div>
      <nav aria-label="API areas" className="rounded-md border border-slate-200 bg-slate-50/60 px-4 py-3">
        <h3 className="mb-2 text-xs font-semibold tracking-wide text-slate-600 uppercase">Contents</h3>
        <ol className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2 lg:grid-cols-3" data-testid="api-contents">
          {groups.map((g) => (
            <li key={g.name}>
              <a href={`#${anchor(g.name)}`} className="text-indigo-700 hover:underline">
                {g.name}
              </a>{" "}
              <span className="text-xs text-slate-500">({g.operations.length})</span>
            </li>
          ))}
        </ol>
      </nav>
      {groups.length === 0 && <p className="text-sm text-slate-600">No endpoint matches “{filter}”.</p>}
      <div className="space-y-6" data-testid="api-reference">
        {groups.map((g) => (
          <section key={g.name} id={anchor(g.name)} aria-labelledby={`${anchor(g.name)}-title`} className="scroll-mt-20 space-y-2" data-testid="api-group">
            <h3 id={`${anchor(g.name)}-title`} className="text-base font-semibold text-slate-900">
              {g.name}
            </h3>
            {g.description && <p className="text-sm text-slate-600">{g.description}</p>}
            <ul className="divide-y divide-slate-200 rounded-md border border-slate-200" aria-label={`${g.name} endpoints`}>
              {g.operations.map((op) => (
                <li key={`${op.method} ${op.path}`}>
                  <details className="group">
                    <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-2 gap-y-1 px-4 py-2.5 hover:bg-slate-50">
                      <Badge tone={METHOD_TONE[op.method] ?? "neutral"} className="w-16 justify-center font-mono uppercase">
                        {op.method}
                      </Badge>
                      <code className="min-w-0 font-mono text-sm break-all text-slate-900">{op.path}</code>
                      <span className="min-w-0 basis-full text-sm text-slate-600 sm:flex-1 sm:basis-auto sm:truncate">{op.summary}</span>
                    </summary>
                    <OperationDetails op={op} components={components} />
                  </details>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </div>
  );
}

function OperationDetails({ op, components }: { op: Operation; components: Record<string, JsonSchema> }) {
  const [successStatus, success] = op.responses.find(([status]) => /^2/.test(status)) ?? [];
  const successSchema = success ? Object.values(success.content ?? {})[0]?.schema : undefined;
  const refusals = op.responses.filter(([status]) => /^4/.test(status));
  const pathParams = op.parameters.filter((p) => p.in === "path");
  const queryParams = op.parameters.filter((p) => p.in === "query");
  return (
    <div className="space-y-4 border-t border-slate-100 bg-slate-50/60 px-4 py-3 text-sm">
      <p className="text-slate-800">{op.summary}</p>
      <p className="text-slate-700" data-testid="who-may-call">
        <span className="font-medium text-slate-900">Who may call: </span>
        {op.whoMayCall}
      </p>
      <p className="text-xs text-slate-600">
        {op.tag} · operationId <code className="font-mono">{op.operationId}</code>
      </p>
      {op.rules.length > 0 && (
        <Section title="Refused when">
          <div className="space-y-1" data-testid="operation-rules">
            {op.rules.map((r) => (
              <p key={r.when} className="text-slate-800">
                <Badge tone="amber" className="mr-2 font-mono">
                  {r.status} {r.code}
                </Badge>
                {r.when}
              </p>
            ))}
          </div>
        </Section>
      )}
      {pathParams.length > 0 && <Section title="Path parameters"><FieldTable rows={pathParams.map(paramRow)} /></Section>}
      {queryParams.length > 0 && <Section title="Query parameters"><FieldTable rows={queryParams.map(paramRow)} /></Section>}
      {op.requestBody && (
        <Section title="Request body (JSON)">
          <FieldTable rows={fieldsOf(op.requestBody, components)} />
          {op.examples.length > 0 && (
            <div className="mt-2 space-y-2">
              {op.examples.map((e) => (
                <div key={e.name}>
                  <p className="text-xs font-medium text-slate-700">Example: {e.summary}</p>
                  <pre tabIndex={0} className="max-h-60 overflow-auto rounded border border-slate-200 bg-white p-2 font-mono text-xs text-slate-800">
                    {JSON.stringify(e.value, null, 2)}
                  </pre>
                </div>
              ))}
            </div>
          )}
        </Section>
      )}
      {successStatus && (
        <Section title={`Response ${successStatus}`}>
          {successSchema ? <ResponseFields schema={successSchema} components={components} /> : <p className="text-slate-700">{success?.description}</p>}
        </Section>
      )}
      {refusals.length > 0 && (
        <Section title="Errors">
          <p className="mb-1 text-xs text-slate-600">
            Every error answers <code className="font-mono">{"{error: {code, message, details?}}"}</code>.
          </p>
          <div className="space-y-1">
            {refusals.map(([status, r]) => (
              <p key={status} className="text-slate-800">
                <span className="mr-2 font-mono font-medium">{status}</span>
                {r.description}
              </p>
            ))}
          </div>
        </Section>
      )}
    </div>
  );
}

function paramRow(p: Parameter): FieldRow {
  const [row] = fieldsOf({ type: "object", properties: { [p.name]: { ...(p.schema ?? {}), description: p.description ?? p.schema?.description } }, required: p.required ? [p.name] : [] }, {});
  return row!;
}

function ResponseFields({ schema, components }: { schema: JsonSchema; components: Record<string, JsonSchema> }) {
  const rows = fieldsOf(schema, components);
  const named = referencedComponents(schema, components);
  if (rows.length === 0 && named.length === 0) return <p className="text-slate-700">A JSON object.</p>;
  return (
    <div className="space-y-2">
      {rows.length > 0 && <FieldTable rows={rows} />}
      {named.map((name) => (
        <details key={name} className="rounded border border-slate-200 bg-white">
          <summary className="cursor-pointer px-3 py-1.5 text-slate-800">
            <code className="font-mono font-medium">{name}</code>
            {components[name]?.description ? <span className="text-slate-600"> — {components[name]!.description}</span> : null}
          </summary>
          <div className="border-t border-slate-100 p-2">
            <FieldTable rows={fieldsOf({ $ref: `#/components/schemas/${name}` }, components, "", 1)} />
          </div>
        </details>
      ))}
    </div>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div>
      <h4 className="mb-1 font-medium text-slate-900">{title}</h4>
      {children}
    </div>
  );
}

function FieldTable({ rows }: { rows: FieldRow[] }) {
  if (rows.length === 0) return <p className="text-slate-600">No fields.</p>;
  return (
    <div className="overflow-x-auto rounded border border-slate-200 bg-white">
      <table className="w-full text-left text-xs">
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            <th scope="col" className="px-2 py-1 font-medium">Field</th>
            <th scope="col" className="px-2 py-1 font-medium">Type</th>
            <th scope="col" className="px-2 py-1 font-medium">Description, values and limits</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={r.name} className="align-top">
              <td className="px-2 py-1 font-mono text-slate-900">
                {r.name}
                {r.required ? <span className="ml-1 font-sans text-[11px] text-rose-700">required</span> : null}
              </td>
              <td className="px-2 py-1 font-mono text-slate-700">{r.type}</td>
              <td className="px-2 py-1 text-slate-800">
                {r.description ? <span>{r.description}</span> : null}
                {r.values ? (
                  <span className="block text-slate-700">
                    One of: {r.values.map((v) => <code key={v} className="mr-1 rounded bg-slate-100 px-1 font-mono">{v}</code>)}
                  </span>
                ) : null}
                {r.limits.length > 0 ? <span className="block text-slate-600">{r.limits.join(" · ")}</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The rules that refuse a new integration's first calls most often, stated once above the reference. */
function CallerRules() {
  return (
    <section aria-label="Rules callers trip over" className="space-y-2 rounded-md border border-amber-200 bg-amber-50/60 p-4 text-sm text-slate-800">
      <h3 className="font-medium text-slate-900">Rules callers trip over</h3>
      <p>
        Every memory has a tier, and each category lives in exactly one tier (422 otherwise). A decision is a{" "}
        <strong>learning</strong> memory: <code className="font-mono">{`{"tier": "learning", "category": "decision"}`}</code>.
      </p>
      <div className="overflow-x-auto">
        <table className="text-left text-xs" aria-label="Categories by tier">
          <tbody>
            {Object.entries(CATEGORIES_BY_TIER).map(([tier, categories]) => (
              <tr key={tier}>
                <th scope="row" className="py-0.5 pr-3 font-mono font-medium">{tier}</th>
                <td className="py-0.5 font-mono">{categories.join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        <code className="font-mono">decisionContext</code> is accepted on decisions only; <code className="font-mono">confidence</code> below{" "}
        {MIN_CONFIDENCE} is refused, and a learning memory below {LOW_CONFIDENCE} expires after {LOW_CONFIDENCE_TTL_DAYS} days unless used.
        Field agents cannot write <code className="font-mono">scope: team</code> (403). The WORKING scratchpad holds {WORKING_MAX_CHARS.toLocaleString("en-US")}{" "}
        characters. Edits that send a stale <code className="font-mono">expectedVersion</code> answer 409 with the current version to merge with.
      </p>
    </section>
  );
}
