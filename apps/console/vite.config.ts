import preact from "@preact/preset-vite";
import { defineConfig } from "vite";

// Static files only, served by `mcpx serve` at / under a strict Content-Security-Policy
// (default-src 'self'): no inline script or style, nothing fetched from elsewhere.
export default defineConfig({
  plugins: [preact()],
  base: "./",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // An inlined asset would be a data: URL the CSP refuses.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: "es2022",
  },
});
