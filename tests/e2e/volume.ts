import { expect, type APIRequestContext } from "@playwright/test";
import { adminHeaders } from "./helpers";

// Realistic volume for the console journeys, made through the API as agents and HQ would make it:
// batches where the API has them (knowledge imports, transcripts), a few calls at a time otherwise.

/** Runs `make(i)` for 0..n-1, `concurrency` at a time, in order of i. */
export async function inParallel<T>(n: number, make: (i: number) => Promise<T>, concurrency = 8): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, n) }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await make(i);
      }
    }),
  );
  return out;
}

/**
 * A write as a well-behaved client sends it: a 429 (this test's one key making hundreds of rows at
 * once meets the per-caller rate) is retried after its Retry-After.
 */
async function post(request: APIRequestContext, path: string, data: unknown, status = 201) {
  for (let attempt = 1; ; attempt++) {
    const res = await request.post(path, { headers: adminHeaders(), data });
    if (res.status() === 429 && attempt < 10) {
      await new Promise((r) => setTimeout(r, Number(res.headers()["retry-after"] ?? 1) * 1000));
      continue;
    }
    expect(res.status(), `${path}: ${await res.text()}`).toBe(status);
    return res.json();
  }
}

export async function sunriseId(request: APIRequestContext): Promise<string> {
  const clients = await (await request.get("/api/v1/clients", { headers: adminHeaders() })).json();
  const sunrise = clients.clients.find((c: { name: string }) => c.name === "Sunrise Plumbing");
  expect(sunrise, "the demo's Sunrise Plumbing").toBeTruthy();
  return sunrise.id;
}

/** `n` contacts of a client, named `${prefix} 1…n`. */
export function makeContacts(request: APIRequestContext, clientId: string, prefix: string, n: number): Promise<string[]> {
  return inParallel(n, async (i) => (await post(request, "/api/v1/contacts", { name: `${prefix} ${i + 1}`, clientId })).contact.id as string);
}

/**
 * `n` pending suggestions spread over `contacts`, confidence 0.8 (below the auto-approve threshold,
 * so they wait for a person), keys `${keyPrefix}_1…n`, oldest first in that order.
 */
export async function makePendingSuggestions(request: APIRequestContext, contacts: string[], keyPrefix: string, n: number): Promise<string[]> {
  // in order of i: the queue lists the oldest first, so the test knows which row comes first
  const ids: string[] = [];
  const chunk = 25;
  for (let start = 0; start < n; start += chunk) {
    ids.push(
      ...(await inParallel(Math.min(chunk, n - start), async (j) => {
        const i = start + j;
        const body = await post(request, "/api/v1/suggestions", {
          contactId: contacts[i % contacts.length],
          key: `${keyPrefix}_${i + 1}`,
          value: `value ${i + 1}`,
          confidence: 0.8,
        });
        return body.suggestion.id as string;
      })),
    );
  }
  return ids;
}

/** `n` knowledge entries in one import call. */
export async function importKnowledge(request: APIRequestContext, n: number, title: (i: number) => string, tags: (i: number) => string[]) {
  const body = await post(
    request,
    "/api/v1/knowledge/import",
    {
      entries: Array.from({ length: n }, (_, i) => ({
        title: title(i),
        content: `## When\n\nA customer asks about case ${i + 1}.\n\n## Steps\n\n1. Check the account.\n2. Answer within the hour.`,
        category: "procedure",
        tags: tags(i),
      })),
    },
    200,
  );
  return body;
}
