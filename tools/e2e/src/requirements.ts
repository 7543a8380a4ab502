import { it } from "vitest";

/**
 * One test per name, each name `<revision>/<area>/<requirement>` written out in full so the list of
 * tests reads as the list of requirements; the body gets the revision the name starts with.
 */
export function requirement(
  names: readonly string[],
  body: (revision: string) => Promise<void> | void,
): void {
  for (const name of names) {
    const revision = name.slice(0, name.indexOf("/"));
    it(name, () => body(revision));
  }
}

export const LEGACY = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;
