import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { conditions: ["@mcpx/source"] },
  ssr: { resolve: { conditions: ["@mcpx/source"] } },
  test: { include: ["test/**/*.test.ts"], testTimeout: 20_000, hookTimeout: 20_000 },
});
