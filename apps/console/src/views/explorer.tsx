/**
 * Tools, prompts and resources of every upstream: search by name or description, a tool's input
 * form from its schema, call it (cancel aborts the request, which cancels the upstream's call),
 * read a resource, render a prompt.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import {
  get,
  type JsonSchema,
  type LifecycleEvent,
  type Prompt,
  post,
  type Resource,
  type Tool,
} from "../api";
import { SchemaForm } from "../schema-form";
import { ResultView } from "./result";

type Kind = "tools" | "prompts" | "resources";
type Item = { kind: Kind; key: string; title: string; description?: string; raw: Tool | Prompt | Resource };

function promptSchema(p: Prompt): JsonSchema {
  return {
    type: "object",
    properties: Object.fromEntries(
      (p.arguments ?? []).map((a) => [
        a.name,
        { type: "string", ...(a.description ? { description: a.description } : {}) },
      ]),
    ),
    required: (p.arguments ?? []).filter((a) => a.required).map((a) => a.name),
  };
}

function Detail(props: { item: Item }) {
  const { item } = props;
  const [result, setResult] = useState<Record<string, unknown>>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | undefined>(undefined);

  const run = async (route: string, body: unknown) => {
    abort.current = new AbortController();
    setBusy(true);
    setError(undefined);
    setResult(undefined);
    try {
      setResult(await post<Record<string, unknown>>(route, body, abort.current.signal));
    } catch (err) {
      setError(abort.current.signal.aborted ? "Cancelled." : (err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const cancel = busy ? (
    <button type="button" class="secondary" onClick={() => abort.current?.abort()}>
      Cancel
    </button>
  ) : null;

  return (
    <section class="card detail" aria-label={item.title}>
      <h3>{item.title}</h3>
      {item.description ? <p class="muted">{item.description}</p> : null}
      {item.kind === "tools" ? (
        <SchemaForm
          key={item.key}
          schema={(item.raw as Tool).inputSchema ?? { type: "object" }}
          idPrefix="arg"
          submitLabel="Call"
          busy={busy}
          onSubmit={(args) => run("call", { name: item.key, arguments: args })}
        >
          {cancel}
        </SchemaForm>
      ) : item.kind === "prompts" ? (
        <SchemaForm
          key={item.key}
          schema={promptSchema(item.raw as Prompt)}
          idPrefix="arg"
          submitLabel="Render"
          busy={busy}
          onSubmit={(args) => run("prompt", { name: item.key, arguments: args })}
        >
          {cancel}
        </SchemaForm>
      ) : (
        <div class="actions">
          <button type="button" disabled={busy} onClick={() => run("read", { uri: item.key })}>
            Read
          </button>
          {cancel}
        </div>
      )}
      {busy ? <p role="status">Running…</p> : null}
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      {result ? <ResultView result={result} /> : null}
    </section>
  );
}

export function ExplorerView(props: { events: LifecycleEvent[] }) {
  const [items, setItems] = useState<Item[]>([]);
  const [query, setQuery] = useState("");
  const [kind, setKind] = useState<Kind>("tools");
  const [chosen, setChosen] = useState<Item>();
  const [error, setError] = useState<string>();
  const changed =
    props.events.filter((e) => e.type === "list.changed" || e.type === "upstream.connected").at(-1)?.seq ?? 0;

  useEffect(() => {
    (async () => {
      try {
        const [t, p, r] = await Promise.all([
          get<{ tools: Tool[] }>("list/tools"),
          get<{ prompts: Prompt[] }>("list/prompts"),
          get<{ resources: Resource[] }>("list/resources"),
        ]);
        setItems([
          ...t.tools.map((x) => ({
            kind: "tools" as const,
            key: x.name,
            title: x.name,
            description: x.description,
            raw: x,
          })),
          ...p.prompts.map((x) => ({
            kind: "prompts" as const,
            key: x.name,
            title: x.name,
            description: x.description,
            raw: x,
          })),
          ...r.resources.map((x) => ({
            kind: "resources" as const,
            key: x.uri,
            title: x.name ?? x.uri,
            description: x.uri,
            raw: x,
          })),
        ]);
        setError(undefined);
      } catch (err) {
        setError((err as Error).message);
      }
    })();
  }, [changed]);

  const q = query.toLowerCase();
  const shown = items.filter(
    (i) =>
      i.kind === kind &&
      (!q || i.title.toLowerCase().includes(q) || i.description?.toLowerCase().includes(q)),
  );
  return (
    <section>
      <h2>Explorer</h2>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      <div class="filters">
        <div class="field">
          <label for="explorer-kind">List</label>
          <select id="explorer-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as Kind)}>
            <option value="tools">Tools</option>
            <option value="prompts">Prompts</option>
            <option value="resources">Resources</option>
          </select>
        </div>
        <div class="field grow">
          <label for="explorer-search">Search</label>
          <input
            id="explorer-search"
            type="search"
            value={query}
            onInput={(e) => setQuery(e.currentTarget.value)}
          />
        </div>
      </div>
      <div class="explorer">
        <ul class="items" aria-label={`${kind} (${shown.length})`}>
          {shown.map((i) => (
            <li key={i.kind + i.key}>
              <button
                type="button"
                class="item"
                aria-pressed={chosen?.key === i.key && chosen.kind === i.kind}
                onClick={() => setChosen(i)}
              >
                <strong>{i.title}</strong>
                {i.description ? <small>{i.description}</small> : null}
              </button>
            </li>
          ))}
        </ul>
        {chosen ? (
          <Detail key={chosen.kind + chosen.key} item={chosen} />
        ) : (
          <p class="muted">Choose one to try it.</p>
        )}
      </div>
    </section>
  );
}
