/** The testkit's own tests get the same after-each strict check as tools/e2e (see strict-check.ts). */
import { afterAll, afterEach } from "vitest";
import { assertNoInvalidFrames, assertNoStaleOptOuts } from "../src/index.js";

afterEach(() => assertNoInvalidFrames());
// Frames that arrive after the last test (servers shared by the file, closed in afterAll) count too.
afterAll(() => {
  assertNoInvalidFrames();
  assertNoStaleOptOuts();
});
