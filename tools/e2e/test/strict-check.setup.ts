/**
 * Every test fails when a scripted server it made saw a frame that breaks its revision's schema
 * (issue 17: tests that never looked at `server.failures` hid defects). Setup hooks run after the
 * harness cleanups (vitest runs after-hooks in reverse order of registration), so frames sent while
 * closing are checked too; a server keeps its failures after close.
 */
import { assertNoInvalidFrames, assertNoStaleOptOuts } from "@mcpx/testkit";
import { afterAll, afterEach } from "vitest";

afterEach(() => assertNoInvalidFrames());
// Frames that arrive after the last test (servers shared by the file, closed in afterAll) count too.
afterAll(() => {
  assertNoInvalidFrames();
  assertNoStaleOptOuts();
});
