/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite loads its WASM and data files from its own package folder at run time; prom-client and
  // the OpenTelemetry SDK are loaded once by Node (one registry, one tracer provider per process)
  serverExternalPackages: ["@electric-sql/pglite", "prom-client", "@vercel/otel"],
  poweredByHeader: false,
  // lets several builds (parallel test runs, a dev server beside an e2e build) live side by side
  distDir: process.env.NEXT_DIST_DIR || ".next",
};

export default nextConfig;
