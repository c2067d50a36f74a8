import { afterEach, describe, expect, it, vi } from "vitest";
import { getConfig, resetConfigForTests } from "@/lib/config";
import { callerAddress, DIRECT_ADDRESS } from "@/lib/http/caller-address";

afterEach(() => {
  vi.unstubAllEnvs();
  resetConfigForTests();
});

const trust = (value: string) => {
  vi.stubEnv("TRUST_PROXY", value);
  resetConfigForTests();
  return getConfig().TRUST_PROXY;
};
const xff = (v: string) => new Headers({ "x-forwarded-for": v });

describe("the client address behind TRUST_PROXY", () => {
  it("ignores X-Forwarded-For entirely when no proxy is trusted (the default)", () => {
    vi.stubEnv("TRUST_PROXY", "");
    resetConfigForTests();
    expect(getConfig().TRUST_PROXY).toEqual({ mode: "none" });
    expect(callerAddress(xff("1.2.3.4"))).toBe(DIRECT_ADDRESS);
    expect(callerAddress(xff("1.2.3.4"), trust("false"))).toBe(DIRECT_ADDRESS);
  });

  it("takes the address the outermost of N proxies appended, never the caller's own claims", () => {
    const one = trust("1");
    expect(callerAddress(xff("6.6.6.6, 7.7.7.7, 198.51.100.1"), one)).toBe("198.51.100.1");
    expect(callerAddress(xff("198.51.100.1"), one)).toBe("198.51.100.1");
    const two = trust("2");
    expect(callerAddress(xff("6.6.6.6, 198.51.100.1, 10.0.0.2"), two)).toBe("198.51.100.1");
    expect(callerAddress(new Headers(), two)).toBe(DIRECT_ADDRESS);
  });

  it("skips listed proxies and CIDR ranges from the right, IPv4 and IPv6", () => {
    const list = trust("10.0.0.0/8, 192.0.2.1, fd00::/8");
    expect(callerAddress(xff("6.6.6.6, 198.51.100.1, 10.1.1.1, 192.0.2.1"), list)).toBe("198.51.100.1");
    expect(callerAddress(xff("2001:db8::5, fd00::1"), list)).toBe("2001:db8::5");
    expect(callerAddress(xff("::ffff:198.51.100.3, ::ffff:10.0.0.1"), list)).toBe("198.51.100.3");
    expect(callerAddress(xff("not-an-ip, 10.0.0.1"), list)).toBe("not-an-ip");
    expect(callerAddress(xff("10.0.0.9, 10.0.0.1"), list)).toBe("10.0.0.9");
  });

  it("refuses a TRUST_PROXY that is neither false, a hop count nor addresses, naming the setting", () => {
    for (const bad of ["yes please", "11", "10.0.0.0/33", "10.0.0.1, example.com", "-1"]) {
      vi.stubEnv("TRUST_PROXY", bad);
      resetConfigForTests();
      expect(() => getConfig(), bad).toThrow(/TRUST_PROXY/);
    }
  });
});
