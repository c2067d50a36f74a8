/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite loads its WASM and data files from its own package folder at run time
  serverExternalPackages: ["@electric-sql/pglite"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
