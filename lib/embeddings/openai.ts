import OpenAI from "openai";
import { EMBEDDING_DIMENSIONS, EmbeddingUnavailableError, type EmbeddingProvider } from "./types";

export interface OpenAiEmbedderOptions {
  apiKey?: string;
  baseURL?: string;
  model: string;
  /** what the model returns; vectors shorter than 1536 are zero-padded (cosine is unchanged) */
  dimensions: number;
  batchSize: number;
  maxRetries: number;
  timeoutMs: number;
}

/**
 * OpenAI or any OpenAI-compatible server (Ollama, vLLM, LM Studio) through the openai SDK.
 * Batches requests, retries with exponential backoff (the SDK's), and turns an unreachable or
 * refusing server into EmbeddingUnavailableError with a message that says what to check.
 */
export function createOpenAiEmbedder(o: OpenAiEmbedderOptions): EmbeddingProvider {
  if (o.dimensions > EMBEDDING_DIMENSIONS) {
    throw new Error(`EMBEDDING_DIMENSIONS must be at most ${EMBEDDING_DIMENSIONS} (the stored vector size)`);
  }
  const client = new OpenAI({
    apiKey: o.apiKey || "not-needed",
    baseURL: o.baseURL,
    maxRetries: o.maxRetries,
    timeout: o.timeoutMs,
  });
  // text-embedding-3 models can shorten their output; other servers reject the parameter
  const sendDimensions = o.model.startsWith("text-embedding-3");
  return {
    name: "openai",
    model: o.model,
    async embed(texts) {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += o.batchSize) {
        const batch = texts.slice(i, i + o.batchSize).map((t) => (t.trim() === "" ? " " : t));
        let res;
        try {
          res = await client.embeddings.create({
            model: o.model,
            input: batch,
            ...(sendDimensions ? { dimensions: o.dimensions } : {}),
          });
        } catch (err) {
          throw new EmbeddingUnavailableError(describe(err, o), { cause: err });
        }
        for (const item of [...res.data].sort((a, b) => a.index - b.index)) out.push(fit(item.embedding));
      }
      return out;
    },
  };
}

function fit(v: number[]): number[] {
  if (v.length > EMBEDDING_DIMENSIONS) {
    throw new EmbeddingUnavailableError(
      `The embedding model returned ${v.length} dimensions; at most ${EMBEDDING_DIMENSIONS} can be stored`,
    );
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  const out = v.map((x) => x / norm);
  while (out.length < EMBEDDING_DIMENSIONS) out.push(0);
  return out;
}

function describe(err: unknown, o: OpenAiEmbedderOptions): string {
  const where = o.baseURL ?? "api.openai.com";
  if (err instanceof OpenAI.APIConnectionError || err instanceof OpenAI.APIConnectionTimeoutError) {
    return `The embedding server at ${where} is unreachable (${(err as Error).message}); check OPENAI_BASE_URL and that the server is running`;
  }
  if (err instanceof OpenAI.AuthenticationError) return `The embedding server at ${where} refused OPENAI_API_KEY`;
  if (err instanceof OpenAI.NotFoundError) return `The embedding model "${o.model}" is not available at ${where}; check EMBEDDING_MODEL`;
  if (err instanceof OpenAI.APIError) return `The embedding server at ${where} answered ${err.status}: ${err.message}`;
  return `Embedding failed: ${(err as Error)?.message ?? String(err)}`;
}
