import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SEAM_HEADERS } from "@/server/seam.mjs";

const root = path.join(__dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

describe("the seam between the production server and the app (server/seam.mjs)", () => {
  it("is where the names live: the proxy's matcher (which Next.js reads without running it) names the same direct header", () => {
    // proxy.ts's `config` must be a literal, so the header is written out there once more
    const matcher = /missing:\s*\[\{\s*type:\s*"header",\s*key:\s*"([^"]+)"\s*\}\]/.exec(read("proxy.ts"));
    expect(matcher?.[1]).toBe(SEAM_HEADERS.direct);
  });

  it("names every process-wide global and internal header once: no other file spells them", () => {
    const files = [
      "server.mjs",
      "proxy.ts",
      "instrumentation.ts",
      "server/admission.mjs",
      "server/direct.mjs",
      "lib/http/server-bridge.ts",
      "lib/http/admission.ts",
      "lib/metrics/admission.ts",
      "lib/metrics/http.ts",
      "lib/db/index.ts",
      "app/(hq)/layout.tsx",
    ];
    for (const file of files) {
      const text = read(file).replace(/key:\s*"x-memory-hq-direct"/, "");
      expect(text, file).not.toMatch(/__memoryHq\w+|"x-memory-hq-(queue-ms|direct)"|"x-mhq-path"|"MHQ_ENGINE_SOCKET"|"unmatched"/);
    }
  });
});
