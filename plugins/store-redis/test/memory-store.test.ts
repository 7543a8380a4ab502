import { MemoryStore } from "@mcpx/host";
import { describe } from "vitest";
import { storeContract } from "./contract.js";

describe("store", () => {
  storeContract("store", async () => {
    const store = new MemoryStore();
    return { a: store, b: store };
  });
});
