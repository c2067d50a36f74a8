// The client's runtime: one HTTP call per endpoint, JSON in and out, errors thrown as MemoryHqError.
// No dependencies: it runs on the global fetch of Node.js 18+, Deno, Bun and browsers.

/** An answer other than 2xx from the API: its status and the `{error: {code, message, details}}` it carried. */
export class MemoryHqError extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.name = "MemoryHqError";
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** `/api/v1/agents/{agentId}/keys` + {agentId: "me"} → the concrete path. */
export function fillPath(path, params) {
  return path.replace(/\{(\w+)\}/g, (_, name) => {
    const v = params?.[name];
    if (v === undefined || v === null || v === "") throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(v));
  });
}

/**
 * A function that calls one endpoint (`{method, path, body}`: whether it takes a JSON body) with
 * `{params, query, body}` and answers the parsed JSON.
 */
export function createCaller(options) {
  if (!options || typeof options.baseUrl !== "string" || !options.baseUrl) throw new TypeError("createMemoryHq: baseUrl is required");
  const apiKey = options.apiKey ?? options.key;
  if (typeof apiKey !== "string" || !apiKey) throw new TypeError("createMemoryHq: apiKey is required (an agent key mhq_… or the ADMIN_API_KEY)");
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const base = options.baseUrl.replace(/\/+$/, "");

  return async function call(endpoint, input) {
    const { params, query, body } = input ?? {};
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== "") search.set(k, String(v));
    const qs = search.toString();
    const sendsBody = Boolean(endpoint.body);
    const res = await doFetch(`${base}${fillPath(endpoint.path, params)}${qs ? `?${qs}` : ""}`, {
      method: endpoint.method,
      headers: {
        accept: "application/json",
        authorization: `Bearer ${apiKey}`,
        ...(sendsBody ? { "content-type": "application/json" } : {}),
      },
      body: sendsBody ? JSON.stringify(body ?? {}) : undefined,
    });
    const text = await res.text();
    let data;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      data = text;
    }
    if (!res.ok) {
      const error = data && typeof data === "object" ? data.error : undefined;
      throw new MemoryHqError(res.status, error?.code ?? "http_error", error?.message ?? `The server answered ${res.status}`, error?.details);
    }
    return data;
  };
}

/**
 * The client object: `client[domain][name](input)` for every endpoint of the table, `call(endpoint,
 * input)` for any other, and shortcuts for what an agent does most.
 */
export function buildClient(endpoints, options) {
  const call = createCaller(options);
  const client = { call };
  for (const [domain, byName] of Object.entries(endpoints)) {
    client[domain] = Object.fromEntries(Object.entries(byName).map(([name, endpoint]) => [name, (input) => call(endpoint, input)]));
  }
  const shortcut = (domain, name) => {
    const endpoint = endpoints[domain]?.[name];
    if (!endpoint) throw new Error(`This server has no ${domain}.${name}`);
    return endpoint;
  };
  // an agent's everyday calls, for the calling agent (`me`)
  client.boot = () => call(shortcut("memories", "boot"), { params: { agentId: "me" } });
  client.writeMemory = (body) => call(shortcut("memories", "write"), { params: { agentId: "me" }, body });
  client.retrieve = (body) => call(shortcut("retrieval", "retrieve"), { body });
  client.logInteraction = (body) => call(shortcut("memories", "createInteraction"), { body });
  client.logConversation = (interactions) => call(shortcut("memories", "createInteractionBatch"), { body: { interactions } });
  return client;
}
