import { afterEach, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { installServerHooks, SERVER_HOOKS, type ServerHooks } from "@/lib/http/server-hooks";

afterEach(() => {
  vi.unstubAllEnvs();
  resetConfigForTests();
});

const hooks = () => {
  installServerHooks();
  return (globalThis as Record<string, unknown>)[SERVER_HOOKS] as ServerHooks;
};

describe("bearer-key API calls straight to their handler (API_DIRECT)", () => {
  it("is on by default, off with API_DIRECT=false, and off while tracing is on", () => {
    vi.stubEnv("OTEL_EXPORTER_OTLP_ENDPOINT", "");
    vi.stubEnv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "");
    expect(hooks().directApi()).toBe(true);
    vi.stubEnv("API_DIRECT", "false");
    resetConfigForTests();
    expect(hooks().directApi()).toBe(false);
    vi.stubEnv("API_DIRECT", "true");
    resetConfigForTests();
    vi.stubEnv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318");
    expect(hooks().directApi()).toBe(false);
  });

  it("refuses a value that is no switch, naming the setting", () => {
    vi.stubEnv("API_DIRECT", "sometimes");
    resetConfigForTests();
    expect(() => hooks().directApi()).toThrow(/API_DIRECT/);
  });
});
