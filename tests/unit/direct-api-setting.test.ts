import { afterEach, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { installServerBridge, type ServerBridge } from "@/lib/http/server-bridge";
import { SEAM_GLOBALS } from "@/server/seam.mjs";

afterEach(() => {
  vi.unstubAllEnvs();
  resetConfigForTests();
});

const bridge = () => {
  installServerBridge();
  return (globalThis as Record<string, unknown>)[SEAM_GLOBALS.bridge] as ServerBridge;
};

describe("bearer-key API calls straight to their handler (API_DIRECT)", () => {
  it("is on by default, off with API_DIRECT=false, and off while tracing is on", () => {
    vi.stubEnv("OTEL_EXPORTER_OTLP_ENDPOINT", "");
    vi.stubEnv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "");
    expect(bridge().directApi()).toBe(true);
    vi.stubEnv("API_DIRECT", "false");
    resetConfigForTests();
    expect(bridge().directApi()).toBe(false);
    vi.stubEnv("API_DIRECT", "true");
    resetConfigForTests();
    vi.stubEnv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318");
    expect(bridge().directApi()).toBe(false);
  });

  it("refuses a value that is no switch, naming the setting", () => {
    vi.stubEnv("API_DIRECT", "sometimes");
    resetConfigForTests();
    expect(() => bridge().directApi()).toThrow(/API_DIRECT/);
  });
});
