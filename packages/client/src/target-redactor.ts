/**
 * What takes an upstream's credentials out of a text before it leaves in an error: the secrets
 * applyAuth put on the target, and whatever its live credentials (OAuth's tokens) have produced
 * since, which no list made at connect time can hold.
 */
import type { UpstreamTarget } from "@mcpx/core";
import { type Redactor, redactorOf } from "@mcpx/host";

export function targetRedactor(target: UpstreamTarget): Redactor | undefined {
  const fixed = redactorOf(target.secrets);
  const live = target.auth;
  if (live === undefined) return fixed;
  return fixed ? (text) => live.redact(fixed(text)) : (text) => live.redact(text);
}
