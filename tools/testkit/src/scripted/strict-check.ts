/**
 * The strict check every test gets without asking: each ScriptedServer registers itself here when it
 * is made, and a test runner's after-each hook calls `invalidFramesReport()` (or
 * `assertNoInvalidFrames()`), which names every failure a server collected since the last check. A
 * test that provokes invalid frames on purpose says so with `expectInvalidFrames: "<why>"` and asserts
 * them itself; such a server that saw none at all is reported at the end (`staleOptOutsReport()`),
 * so an opt-out cannot outlive its reason.
 */

/** What the check reads of a server (ScriptedServer implements it). */
export interface CheckedServer {
  readonly label: string;
  readonly failures: readonly string[];
  /** The frame behind each failure, by its index in `failures`, when a frame was at fault. */
  frameOfFailure(index: number): unknown;
  /** Why this server's invalid frames are the test's own business, when they are. */
  readonly invalidFramesExpected: string | undefined;
}

/** Every server made in this module graph (one test file), with how many failures were reported. */
const live = new Map<CheckedServer, number>();
let made = 0;

/** Called by each server as it is made; returns its sequence number (for its label). */
export function registerServer(server: CheckedServer): number {
  live.set(server, 0);
  return ++made;
}

/** A frame as a failure report shows it: JSON, cut where a long frame would bury the problem. */
const FRAME_CHARS = 400;
function showFrame(frame: unknown): string {
  const json = JSON.stringify(frame) ?? String(frame);
  return json.length > FRAME_CHARS ? `${json.slice(0, FRAME_CHARS)}… (${json.length} chars)` : json;
}

/**
 * The failures collected since the last check by every server that does not expect invalid frames,
 * one block per server naming it, each failure with its frame; undefined when there are none.
 * Marks them reported, so each failure fails one test only.
 */
export function invalidFramesReport(): string | undefined {
  const blocks: string[] = [];
  for (const [server, seen] of live) {
    const fresh = server.failures.length - seen;
    live.set(server, server.failures.length);
    if (fresh <= 0 || server.invalidFramesExpected !== undefined) continue;
    const lines = server.failures.slice(seen).map((failure, i) => {
      const frame = server.frameOfFailure(seen + i);
      return frame === undefined ? `  - ${failure}` : `  - ${failure}\n    frame: ${showFrame(frame)}`;
    });
    blocks.push(`${server.label} received ${fresh} invalid frame(s):\n${lines.join("\n")}`);
  }
  if (blocks.length === 0) return undefined;
  return [
    "strict check: a scripted server saw frames that break its revision's schema",
    ...blocks,
    '(a test that sends invalid frames on purpose passes expectInvalidFrames: "<why>" and asserts them)',
  ].join("\n");
}

/** Servers that expect invalid frames but saw none: the opt-out is stale. Forgets every server. */
export function staleOptOutsReport(): string | undefined {
  const stale = [...live.keys()].filter(
    (s) => s.invalidFramesExpected !== undefined && s.failures.length === 0,
  );
  live.clear();
  if (stale.length === 0) return undefined;
  return [
    "strict check: these servers expect invalid frames but saw none (remove expectInvalidFrames):",
    ...stale.map((s) => `  - ${s.label}: ${s.invalidFramesExpected}`),
  ].join("\n");
}

export class InvalidFramesError extends Error {
  override name = "InvalidFramesError";
}

/** Throws an InvalidFramesError with `invalidFramesReport()` when there is anything to report. */
export function assertNoInvalidFrames(): void {
  const report = invalidFramesReport();
  if (report) throw new InvalidFramesError(report);
}

/** Throws an InvalidFramesError with `staleOptOutsReport()` when there is anything to report. */
export function assertNoStaleOptOuts(): void {
  const report = staleOptOutsReport();
  if (report) throw new InvalidFramesError(report);
}
