/**
 * The stored width of an OpenAI-compatible model's vectors (OpenAI text-embedding-3-small's): a
 * model with fewer dimensions is zero-padded to it, so that one HNSW index serves every such model.
 * The offline local model's vectors are stored at their own width (LOCAL_DIMENSIONS).
 */
export const EMBEDDING_DIMENSIONS = 1536;

export interface EmbeddingProvider {
  readonly name: "local" | "openai";
  readonly model: string;
  /** Embeds texts in order; each vector has unit length and the model's stored width (the same for every text). */
  embed(texts: string[]): Promise<number[][]>;
}

/** The provider could not be reached or refused; callers keep the row and queue it for re-embedding. */
export class EmbeddingUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EmbeddingUnavailableError";
  }
}
