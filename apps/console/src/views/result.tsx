/** A tool's result, a resource's contents or a prompt's messages, each part as what it is. */
type Part = Record<string, unknown>;

function ContentPart(props: { part: Part }) {
  const p = props.part;
  if (p.type === "text") return <pre class="text">{String(p.text)}</pre>;
  if (p.type === "image" && typeof p.data === "string") {
    return <img alt="returned by the tool" src={`data:${String(p.mimeType)};base64,${p.data}`} />;
  }
  if (p.type === "audio" && typeof p.data === "string") {
    // biome-ignore lint/a11y/useMediaCaption: an upstream's audio comes with no captions to give.
    return <audio controls src={`data:${String(p.mimeType)};base64,${p.data}`} />;
  }
  if (p.type === "resource" && typeof p.resource === "object" && p.resource) {
    return <Contents items={[p.resource as Part]} />;
  }
  if (p.type === "resource_link") {
    return (
      <p>
        Resource link <code>{String(p.uri)}</code> {p.name ? `(${String(p.name)})` : null}
      </p>
    );
  }
  return <pre class="json">{JSON.stringify(p, null, 2)}</pre>;
}

/** Resource contents: text as text, a blob by its type. */
export function Contents(props: { items: Part[] }) {
  return (
    <>
      {props.items.map((c, i) => (
        <div class="part" key={i}>
          <p class="muted">
            <code>{String(c.uri)}</code> {c.mimeType ? String(c.mimeType) : null}
          </p>
          {typeof c.text === "string" ? (
            <pre class="text">{c.text}</pre>
          ) : typeof c.blob === "string" && String(c.mimeType).startsWith("image/") ? (
            <img alt={String(c.uri)} src={`data:${String(c.mimeType)};base64,${c.blob}`} />
          ) : (
            <p class="muted">{typeof c.blob === "string" ? `${c.blob.length} base64 characters` : null}</p>
          )}
        </div>
      ))}
    </>
  );
}

export function ResultView(props: { result: Part }) {
  const r = props.result;
  const content = Array.isArray(r.content) ? (r.content as Part[]) : [];
  return (
    <section class={`result${r.isError ? " bad" : ""}`} aria-label="Result">
      {r.isError ? <p class="error">The tool reported an error.</p> : null}
      {content.map((p, i) => (
        <ContentPart key={i} part={p} />
      ))}
      {Array.isArray(r.contents) ? <Contents items={r.contents as Part[]} /> : null}
      {Array.isArray(r.messages)
        ? (r.messages as Part[]).map((m, i) => (
            <div class="part" key={i}>
              <strong>{String(m.role)}</strong>
              <ContentPart part={m.content as Part} />
            </div>
          ))
        : null}
      {r.structuredContent !== undefined ? (
        <>
          <h4>Structured content</h4>
          <pre class="json">{JSON.stringify(r.structuredContent, null, 2)}</pre>
        </>
      ) : null}
      <details>
        <summary>Raw JSON</summary>
        <pre class="json">{JSON.stringify(r, null, 2)}</pre>
      </details>
    </section>
  );
}
