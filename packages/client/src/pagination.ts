/**
 * Paging through a list: the revision says when it ends (a missing nextCursor everywhere; "" on
 * legacy revisions; a cursor that repeats the one just sent). A hard bound stops a server that
 * never ends a list.
 */
import type { JSONObject, Result, Revision } from "@mcpx/core";

export const MAX_PAGES = 1000;

export async function* pages(
  fetchPage: (cursor: string | undefined) => Promise<Result>,
  revision: () => Revision,
): AsyncGenerator<Result> {
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const page = await fetchPage(cursor);
    yield page;
    const next = page.nextCursor;
    if (revision().paginationEnded(cursor, next)) return;
    cursor = next as string;
  }
}

export async function collect<T>(
  fetchPage: (cursor: string | undefined) => Promise<Result>,
  revision: () => Revision,
  key: string,
): Promise<T[]> {
  const all: T[] = [];
  for await (const page of pages(fetchPage, revision)) {
    const items = page[key];
    if (Array.isArray(items)) all.push(...(items as T[]));
  }
  return all;
}

export function withCursor(
  params: JSONObject | undefined,
  cursor: string | undefined,
): JSONObject | undefined {
  if (cursor === undefined) return params;
  return { ...params, cursor };
}
