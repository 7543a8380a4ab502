/**
 * Tools, prompts, resources and resource templates of every upstream: search by name or
 * description, a tool's input form from its schema, call it through the MCP endpoint (its progress
 * shown while it runs, Cancel sends notifications/cancelled), read a resource or a template's
 * expansion (a form for its variables), render a prompt.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import {
  get,
  type JsonSchema,
  type LifecycleEvent,
  type Prompt,
  post,
  type Resource,
  type ResourceTemplate,
  type Tool,
} from "../api";
import { CancelledError, McpSession, type Progress } from "../mcp-session";
import { SchemaForm } from "../schema-form";
import { expandTemplate, templateVariables } from "../uri-template";
import { ResultView } from "./result";

type Kind = "tools" | "prompts" | "resources" | "templates";
type Item = {
  kind: Kind;
  key: string;
  title: string;
  description?: string;
  raw: Tool | Prompt | Resource | ResourceTemplate;
};

/** The page's own MCP session, for the calls (one per tab, opened at the first call). */
const session = new McpSession();

function templateSchema(t: ResourceTemplate): JsonSchema {
  const names = templateVariables(t.uriTemplate);
  return {
    type: "object",
    properties: Object.fromEntries(names.map((n) => [n, { type: "string" }])),
    required: names,
  };
}

function ProgressView(props: { progress: Progress | undefined }) {
  const p = props.progress;
  const text = !p
    ? "Running…"
    : `${p.progress}${p.total !== undefined ? ` of ${p.total}` : ""}${p.message ? `: ${p.message}` : ""}`;
  return (
    <div class="progress" role="status" aria-label="Progress">
      {p && p.total !== undefined ? <progress max={p.total} value={p.progress} /> : <progress />}
      <span>{text}</span>
    </div>
  );
}

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
  const [progress, setProgress] = useState<Progress>();
  const abort = useRef<AbortController | undefined>(undefined);

  const start = async (work: (signal: AbortSignal) => Promise<Record<string, unknown>>) => {
    abort.current = new AbortController();
    setBusy(true);
    setError(undefined);
    setResult(undefined);
    setProgress(undefined);
    try {
      setResult(await work(abort.current.signal));
    } catch (err) {
      setError(
        err instanceof CancelledError || abort.current.signal.aborted ? "Cancelled." : (err as Error).message,
      );
    } finally {
      setBusy(false);
    }
  };
  const run = (route: string, body: unknown) =>
    start((signal) => post<Record<string, unknown>>(route, body, signal));
  const call = (args: Record<string, unknown>) =>
    start((signal) =>
      session.request("tools/call", { name: item.key, arguments: args }, { signal, onProgress: setProgress }),
    );
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
          onSubmit={(args) => call(args)}
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
      ) : item.kind === "templates" ? (
        <SchemaForm
          key={item.key}
          schema={templateSchema(item.raw as ResourceTemplate)}
          idPrefix="var"
          submitLabel="Read"
          busy={busy}
          onSubmit={(vars) =>
            run("read", {
              uri: expandTemplate(
                item.key,
                Object.fromEntries(
                  Object.entries(vars).map(([k, v]) => [k, v === undefined ? undefined : String(v)]),
                ),
              ),
            })
          }
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
      {item.kind === "templates" ? (
        <p class="muted">
          <code>{item.key}</code>
        </p>
      ) : null}
      {busy ? <ProgressView progress={progress} /> : null}
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
        const [t, p, r, rt] = await Promise.all([
          get<{ tools: Tool[] }>("list/tools"),
          get<{ prompts: Prompt[] }>("list/prompts"),
          get<{ resources: Resource[] }>("list/resources"),
          get<{ resourceTemplates: ResourceTemplate[] }>("list/resource-templates"),
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
          ...rt.resourceTemplates.map((x) => ({
            kind: "templates" as const,
            key: x.uriTemplate,
            title: x.title ?? x.name ?? x.uriTemplate,
            description: x.description ?? x.uriTemplate,
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
            <option value="templates">Resource templates</option>
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
