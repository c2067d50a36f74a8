import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

const root = __dirname;

export default defineConfig({
  resolve: {
    alias: {
      "@": root,
      // `server-only` throws outside a React Server environment; the tests are server code
      "server-only": path.join(root, "tests/helpers/server-only-stub.ts"),
    },
  },
  test: {
    // each integration file holds its own database and waits mostly on it: on a 2-core machine two
    // files at a time finish the suite in about half the time of vitest's default (cores − 1)
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node", globalSetup: ["tests/helpers/models-setup.ts"] },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          setupFiles: ["tests/helpers/setup-env.ts"],
          globalSetup: ["tests/helpers/models-setup.ts", "tests/helpers/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
