import { describe, expect, it } from "vitest";
import { supabaseAuthConfig } from "@/lib/auth/supabase-client";
import { signHs256, verifyHs256 } from "../helpers/supabase-auth-server";

describe("Supabase sign-in configuration", () => {
  it("is on only with both the URL and the anon key, read at run time", () => {
    expect(supabaseAuthConfig({})).toBeNull();
    expect(supabaseAuthConfig({ NEXT_PUBLIC_SUPABASE_URL: "https://abc.supabase.co" })).toBeNull();
    expect(supabaseAuthConfig({ NEXT_PUBLIC_SUPABASE_ANON_KEY: "key" })).toBeNull();
    expect(supabaseAuthConfig({ NEXT_PUBLIC_SUPABASE_URL: " ", NEXT_PUBLIC_SUPABASE_ANON_KEY: "key" })).toBeNull();
    expect(
      supabaseAuthConfig({
        NEXT_PUBLIC_SUPABASE_URL: "https://abc.supabase.co/",
        NEXT_PUBLIC_SUPABASE_ANON_KEY: "key",
        SUPABASE_AUTH_PROVIDERS: "GitHub, google,,bad provider!",
      }),
    ).toEqual({ url: "https://abc.supabase.co", anonKey: "key", providers: ["github", "google"] });
  });
});

describe("the local Supabase Auth's tokens (what the sign-in tests rely on)", () => {
  const secret = "s3cret";
  const exp = Math.floor(Date.now() / 1000) + 60;

  it("verifies its own signature and refuses tampered, foreign and expired tokens", () => {
    const token = signHs256({ sub: "u1", exp }, secret);
    expect(verifyHs256(token, secret)).toMatchObject({ sub: "u1" });
    const [head, , sig] = token.split(".");
    const forged = Buffer.from(JSON.stringify({ sub: "admin", exp })).toString("base64url");
    expect(verifyHs256(`${head}.${forged}.${sig}`, secret)).toBeNull();
    expect(verifyHs256(token, "other-secret")).toBeNull();
    expect(verifyHs256(signHs256({ sub: "u1", exp: exp - 120 }, secret), secret)).toBeNull();
    expect(verifyHs256("not.a-token", secret)).toBeNull();
  });
});
