import { getConfig } from "@/lib/config";
import { recordEmbeddingCall, recordEmbeddingFailure } from "@/lib/metrics/embeddings";
import { knowsAnyWord, localEmbedder } from "./local";
import { createOpenAiEmbedder } from "./openai";
import { EmbeddingUnavailableError, type EmbeddingProvider } from "./types";

export { EMBEDDING_DIMENSIONS, EmbeddingUnavailableError, type EmbeddingProvider } from "./types";

let cached: EmbeddingProvider | undefined;
let override: EmbeddingProvider | undefined;

/** The configured provider: `openai` when EMBEDDINGS_PROVIDER says so (or a key/base URL is set), else `local`. */
export function getEmbeddingProvider(): EmbeddingProvider {
  if (override) return override;
  if (cached) return cached;
  const c = getConfig();
  const useOpenAi =
    c.EMBEDDINGS_PROVIDER === "openai" ||
    (c.EMBEDDINGS_PROVIDER === undefined && Boolean(c.OPENAI_API_KEY || c.OPENAI_BASE_URL));
  cached = useOpenAi
    ? createOpenAiEmbedder({
        apiKey: c.OPENAI_API_KEY,
        baseURL: c.OPENAI_BASE_URL,
        model: c.EMBEDDING_MODEL,
        dimensions: c.EMBEDDING_DIMENSIONS,
        batchSize: c.EMBEDDING_BATCH_SIZE,
        maxRetries: c.EMBEDDING_MAX_RETRIES,
        timeoutMs: c.EMBEDDING_TIMEOUT_MS,
      })
    : localEmbedder;
  return cached;
}

/** Tests swap in a failing or counting provider. */
export function setEmbeddingProviderForTests(provider: EmbeddingProvider | undefined): void {
  override = provider;
  cached = undefined;
}

/**
 * Embeds texts, or returns null when the provider is unavailable: the caller stores the row
 * without its embedding, which queues it for `npm run embed:backfill`. Nothing is lost.
 */
export async function tryEmbed(texts: string[]): Promise<number[][] | null> {
  const provider = getEmbeddingProvider();
  const started = performance.now();
  try {
    const vectors = await provider.embed(texts);
    recordEmbeddingCall(provider.name, (performance.now() - started) / 1000);
    return vectors;
  } catch (err) {
    // every failed call is counted; an unavailable provider leaves the row queued for re-embedding
    recordEmbeddingFailure(provider.name, err instanceof EmbeddingUnavailableError ? "unavailable" : "error");
    if (err instanceof EmbeddingUnavailableError) {
      console.warn(`[memory-hq] embedding deferred: ${err.message}`);
      return null;
    }
    throw err;
  }
}

/**
 * A search phrase's vector, or null: the search then runs on its words alone. Null when the provider
 * is unavailable, and when the local model knows no word of the phrase — every such text gets the
 * same stand-in vector, so "zxqv plorf" would otherwise match a stored "x" as the same meaning, and
 * any two texts in a script the model has no words for would match each other.
 */
export async function tryEmbedQuery(text: string): Promise<number[] | null> {
  return (await embedQueryOrWhyNot(text)).vector;
}

/** As tryEmbedQuery, saying why there is no vector: the provider is unavailable, or the model knows none of the words. */
export async function embedQueryOrWhyNot(text: string): Promise<{ vector: number[]; skipped?: undefined } | { vector: null; skipped: "unavailable" | "unknown_words" }> {
  if (getEmbeddingProvider().name === "local" && !knowsAnyWord(text)) return { vector: null, skipped: "unknown_words" };
  const vectors = await tryEmbed([text]);
  return vectors ? { vector: vectors[0]! } : { vector: null, skipped: "unavailable" };
}

/** pgvector's text form, for `$n::vector` parameters. */
export function toVectorLiteral(v: number[]): string {
  return `[${v.map((x) => (Number.isFinite(x) ? Number(x.toFixed(6)) : 0)).join(",")}]`;
}
