import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { conditions: ["@mcpx/source"] },
  ssr: { resolve: { conditions: ["@mcpx/source"] } },
  test: {
    include: ["test/**/*.test.ts"],
    // The strict check after every test: a scripted server must see only valid frames.
    setupFiles: ["test/strict-check.setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
