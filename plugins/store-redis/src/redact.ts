/**
 * The store's URL as it may be shown (errors, logs, status): its password replaced by "***". A URL
 * that does not parse is not quoted at all, since where its password is cannot be known.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "(a URL that does not parse)";
  }
  if (parsed.password !== "") parsed.password = "***";
  return parsed.href;
}
