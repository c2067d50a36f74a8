/**
 * The text a knowledge entry is embedded from. The backfill (lib/embeddings/backfill.ts) rebuilds
 * it in SQL as KNOWLEDGE_EMBEDDING_SQL; keep the two identical.
 */
export function knowledgeEmbeddingText(entry: { title: string; content: string }): string {
  return `${entry.title}\n\n${entry.content}`;
}

export const KNOWLEDGE_EMBEDDING_SQL = "title || E'\\n\\n' || content";
