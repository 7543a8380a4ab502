import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { conditions: ["@mcpx/source"] },
  ssr: { resolve: { conditions: ["@mcpx/source"] } },
  test: {
    include: ["test/**/*.test.ts"],
    // One browser and one daemon per file; the machine's cores are shared.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
