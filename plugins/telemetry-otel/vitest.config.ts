import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { conditions: ["@mcpx/source"] },
  ssr: { resolve: { conditions: ["@mcpx/source"] } },
  test: { include: ["test/**/*.test.ts"] },
});
