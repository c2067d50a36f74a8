import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/**", ".next*/**", ".data*/**", "test-results/**", "playwright-report/**", "next-env.d.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // API route handlers are plain (Request) => Response functions: the in-process tests call them as
    // such, outside any Next.js request, and the server may too. What reads Next.js's per-request scope
    // would fail there: cookies and headers come from the Request, and work after the answer is the
    // caller's to schedule. (lib/console is the console's browser code: its hooks read the address bar.)
    files: ["app/api/**/*.ts", "lib/**/*.ts"],
    ignores: ["lib/console/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "next/headers", message: "Read cookies and headers from the Request (req.cookies, req.headers): API handlers run outside Next.js's request scope." },
            { name: "next/server", importNames: ["after", "connection", "unstable_after"], message: "Request-scoped Next.js APIs fail outside Next.js's request scope, where API handlers run." },
            { name: "next/cache", message: "Next.js's cache APIs need its request scope; API handlers run outside it." },
            { name: "next/navigation", message: "redirect()/notFound() need Next.js's request scope; answer with a Response (or throw ApiError) instead." },
          ],
        },
      ],
    },
  },
  {
    files: ["tests/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["scripts/**/*.mjs", "server/**/*.mjs", "*.mjs"],
    languageOptions: {
      globals: { process: "readonly", console: "readonly", URL: "readonly", performance: "readonly", setTimeout: "readonly", clearTimeout: "readonly", Headers: "readonly", AbortController: "readonly", Buffer: "readonly" },
    },
  },
  {
    // the client package's runtime and stdio bridge: plain JavaScript on Node.js 18+ (or any runtime with fetch)
    files: ["packages/memory-hq-client/**/*.js", "packages/memory-hq-client/**/*.mjs"],
    languageOptions: {
      globals: { process: "readonly", console: "readonly", URL: "readonly", URLSearchParams: "readonly", fetch: "readonly" },
    },
  },
);
