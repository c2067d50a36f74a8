/** Every stored embedding has this many dimensions (vector(1536), OpenAI text-embedding-3-small). */
export const EMBEDDING_DIMENSIONS = 1536;

export interface EmbeddingProvider {
  readonly name: "local" | "openai";
  readonly model: string;
  /** Embeds texts in order; each vector has EMBEDDING_DIMENSIONS entries and unit length. */
  embed(texts: string[]): Promise<number[][]>;
}

/** The provider could not be reached or refused; callers keep the row and queue it for re-embedding. */
export class EmbeddingUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EmbeddingUnavailableError";
  }
}
