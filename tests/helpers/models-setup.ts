import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

/**
 * The local embedding model's word vectors, which tests embed with: npm install derives them; a
 * checkout run straight through vitest derives them here, once, before any test.
 */
export default function setup(): void {
  if (existsSync(path.resolve(".models", "glove-6b-100d-50k-int8.bin"))) return;
  const r = spawnSync(process.execPath, ["scripts/derive-word-vectors.mjs"], { stdio: "inherit" });
  if (r.status !== 0) throw new Error("could not derive the local embedding model's word vectors");
}
