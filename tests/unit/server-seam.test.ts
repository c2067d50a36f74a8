import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.join(__dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

describe("the seam between the production server and the app (server/seam.mjs)", () => {
  it("names every process-wide global and internal header once: no other file spells them", () => {
    const files = [
      "server.mjs",
      "proxy.ts",
      "instrumentation.ts",
      "server/admission.mjs",
      "server/front-door.mjs",
      "server/direct.mjs",
      "lib/http/server-bridge.ts",
      "lib/http/admission.ts",
      "lib/metrics/admission.ts",
      "lib/metrics/http.ts",
      "lib/db/index.ts",
      "app/(hq)/layout.tsx",
    ];
    for (const file of files) {
      expect(read(file), file).not.toMatch(/__memoryHq\w+|"x-memory-hq-queue-ms"|"x-mhq-path"|"MHQ_ENGINE_SOCKET"|"unmatched"/);
    }
  });
});
