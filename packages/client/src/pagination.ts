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

/** Every page's items; `take` picks a page's items (the list screen, for the lists it knows). */
export async function collect<T>(
  fetchPage: (cursor: string | undefined) => Promise<Result>,
  revision: () => Revision,
  key: string,
  take: (page: Result) => readonly unknown[] = (page) => (Array.isArray(page[key]) ? page[key] : []),
): Promise<T[]> {
  const all: T[] = [];
  for await (const page of pages(fetchPage, revision)) {
    // One push per item: spreading a page of 100k items into push() overflows the stack.
    for (const item of take(page)) all.push(item as T);
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
