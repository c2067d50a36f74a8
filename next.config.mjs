/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite loads its WASM and data files from its own package folder at run time
  serverExternalPackages: ["@electric-sql/pglite"],
  poweredByHeader: false,
  // lets several builds (parallel test runs, a dev server beside an e2e build) live side by side
  distDir: process.env.NEXT_DIST_DIR || ".next",
};

export default nextConfig;
