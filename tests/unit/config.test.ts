import { afterEach, describe, expect, it, vi } from "vitest";
import { getConfig, resetConfigForTests } from "@/lib/config";

afterEach(() => {
  vi.unstubAllEnvs();
  resetConfigForTests();
});

describe("configuration", () => {
  it("leaves PGlite's page cache at its own size unless PGLITE_SHARED_BUFFERS is set", () => {
    vi.stubEnv("PGLITE_SHARED_BUFFERS", "");
    expect(getConfig().PGLITE_SHARED_BUFFERS).toBeUndefined();
    resetConfigForTests();
    vi.stubEnv("PGLITE_SHARED_BUFFERS", "512MB");
    expect(getConfig().PGLITE_SHARED_BUFFERS).toBe("512MB");
  });

  it("refuses a PGLITE_SHARED_BUFFERS without a unit, naming the setting", () => {
    vi.stubEnv("PGLITE_SHARED_BUFFERS", "512");
    expect(() => getConfig()).toThrow(/PGLITE_SHARED_BUFFERS must look like 128MB/);
  });

  it("prepares statements by URL unless DATABASE_PREPARE says otherwise, and refuses other values", () => {
    expect(getConfig().DATABASE_PREPARE).toBe("auto");
    resetConfigForTests();
    vi.stubEnv("DATABASE_PREPARE", "sometimes");
    expect(() => getConfig()).toThrow(/DATABASE_PREPARE/);
  });
});
