/**
 * "Did you mean …?" for a tool, prompt or server name: the candidates nearest by Damerau-Levenshtein
 * distance (optimal string alignment, the measure commander uses for its own command suggestions, so
 * names and commands are suggested alike), within commander's bounds: at most 3 edits, and more than
 * 40% of the word kept.
 */
import { SEPARATOR } from "@mcpx/gateway";

const MAX_EDITS = 3;
const MIN_SIMILARITY = 0.4;

/** Edits (insert, delete, substitute, swap two neighbours) from a to b. */
export function editDistance(a: string, b: string): number {
  // Rows i-2, i-1 and i of the table of distances between prefixes.
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, (before[j - 2] ?? 0) + 1);
      }
      row.push(d);
    }
    before = prev;
    prev = row;
  }
  return prev[b.length] ?? 0;
}

/**
 * The candidates nearest to `word` (all those at the best distance), best first. A namespaced name
 * (`fs__read_file`) is also matched on its part after the namespace, so `read_file` finds it.
 */
export function nearest(word: string, candidates: Iterable<string>): string[] {
  if (word === "") return [];
  let best = Number.POSITIVE_INFINITY;
  let found: string[] = [];
  for (const candidate of new Set(candidates)) {
    const sep = candidate.indexOf(SEPARATOR);
    const local = sep > 0 ? candidate.slice(sep + SEPARATOR.length) : undefined;
    const d = Math.min(
      editDistance(word, candidate),
      local === undefined ? Number.POSITIVE_INFINITY : editDistance(word, local),
    );
    if (d > MAX_EDITS || (word.length - d) / word.length <= MIN_SIMILARITY) continue;
    if (d < best) {
      best = d;
      found = [candidate];
    } else if (d === best) found.push(candidate);
  }
  return found.sort();
}

/** "did you mean a?" / "did you mean a, b or c?", or undefined when nothing is near. */
export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  const near = nearest(word, candidates);
  if (near.length === 0) return undefined;
  const list = near.length === 1 ? near[0] : `${near.slice(0, -1).join(", ")} or ${near.at(-1)}`;
  return `did you mean ${list}?`;
}
