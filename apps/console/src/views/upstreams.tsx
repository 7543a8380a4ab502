/** Every upstream with its state, revision, era, transport, what it offers and its last error. */
import { useEffect, useState } from "preact/hooks";
import {
  get,
  type LifecycleEvent,
  type Prompt,
  post,
  type Resource,
  type Status,
  type Tool,
  type UpstreamState,
} from "../api";

interface Counts {
  tools: number;
  prompts: number;
  resources: number;
}

/** The gateway's names are `<namespace>__<name>` and `mcpx://<namespace>/…` (gateway README). */
function countBy(namespaces: string[], tools: Tool[], prompts: Prompt[], resources: Resource[]) {
  const counts = new Map<string, Counts>(namespaces.map((n) => [n, { tools: 0, prompts: 0, resources: 0 }]));
  const owner = (name: string) => counts.get(name.split("__")[0] ?? "");
  for (const t of tools) {
    const c = owner(t.name);
    if (c) c.tools++;
  }
  for (const p of prompts) {
    const c = owner(p.name);
    if (c) c.prompts++;
  }
  for (const r of resources) {
    const c = counts.get(/^mcpx:\/\/([^/]+)\//.exec(r.uri)?.[1] ?? "");
    if (c) c.resources++;
  }
  return counts;
}

const REFRESH_ON = new Set([
  "upstream.connecting",
  "upstream.connected",
  "upstream.disconnected",
  "upstream.failed",
  "era.resolved",
  "list.changed",
]);

export function UpstreamsView(props: { events: LifecycleEvent[] }) {
  const [status, setStatus] = useState<Status>();
  const [counts, setCounts] = useState<Map<string, Counts>>(new Map());
  const [error, setError] = useState<string>();
  const last = props.events.filter((e) => REFRESH_ON.has(e.type)).at(-1)?.seq ?? 0;

  useEffect(() => {
    let live = true;
    (async () => {
      try {
        const s = await get<Status>("status");
        if (!live) return;
        setStatus(s);
        setError(undefined);
        const [t, p, r] = await Promise.all([
          get<{ tools: Tool[] }>("list/tools").catch(() => ({ tools: [] })),
          get<{ prompts: Prompt[] }>("list/prompts").catch(() => ({ prompts: [] })),
          get<{ resources: Resource[] }>("list/resources").catch(() => ({ resources: [] })),
        ]);
        if (live)
          setCounts(
            countBy(
              s.upstreams.map((u) => u.namespace),
              t.tools,
              p.prompts,
              r.resources,
            ),
          );
      } catch (err) {
        if (live) setError((err as Error).message);
      }
    })();
    return () => {
      live = false;
    };
  }, [last]);

  if (error)
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  if (!status) return <p>Loading…</p>;
  return (
    <section>
      <h2>Upstreams</h2>
      <p class="muted">
        mcpx {status.version} · MCP endpoint <code>{status.url}</code> · {status.peers} client(s)
      </p>
      <ul class="cards" aria-label="Upstreams">
        {status.upstreams.map((u) => {
          const c = counts.get(u.namespace);
          return (
            <li class="card upstream" key={u.name} data-upstream={u.name}>
              <h3>
                {u.name} <span class={`state ${u.status}`}>{u.status}</span>
              </h3>
              <dl>
                <dt>Revision</dt>
                <dd>{u.revision ?? "—"}</dd>
                <dt>Era</dt>
                <dd>{u.era ?? "—"}</dd>
                <dt>Transport</dt>
                <dd>{u.transport ?? "—"}</dd>
                <dt>Tools · prompts · resources</dt>
                <dd>{c && u.status === "connected" ? `${c.tools} · ${c.prompts} · ${c.resources}` : "—"}</dd>
                <dt>Attempts</dt>
                <dd>{u.attempts}</dd>
              </dl>
              {u.error ? <p class="error">{u.error}</p> : null}
              <UpstreamActions upstream={u} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/**
 * Reconnect now (the backoff starts over), and Sign in for an upstream waiting for a user's OAuth
 * login: the daemon starts the sign-in and answers the authorization server's page, opened here.
 */
function UpstreamActions(props: { upstream: UpstreamState }) {
  const u = props.upstream;
  const [busy, setBusy] = useState<"reconnect" | "login">();
  const [problem, setProblem] = useState<string>();
  const [signIn, setSignIn] = useState<string>();

  const reconnect = async () => {
    setBusy("reconnect");
    setProblem(undefined);
    try {
      // What came of it the card shows: the event stream refreshes it.
      await post<UpstreamState>(`upstreams/${encodeURIComponent(u.name)}/reconnect`, {});
    } catch (err) {
      setProblem((err as Error).message);
    } finally {
      setBusy(undefined);
    }
  };

  const login = async () => {
    setBusy("login");
    setProblem(undefined);
    // Opened while the click still counts as the user's: a page opened after an await is a pop-up.
    const tab = window.open("", "_blank");
    try {
      const { url } = await post<{ url: string }>(`upstreams/${encodeURIComponent(u.name)}/login`, {});
      setSignIn(url);
      if (tab) {
        tab.opener = null;
        tab.location.href = url;
      }
    } catch (err) {
      tab?.close();
      setProblem((err as Error).message);
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <div class="actions">
      {u.needsLogin ? (
        <button
          type="button"
          onClick={login}
          disabled={busy !== undefined}
          aria-label={`Sign in to ${u.name}`}
        >
          {busy === "login" ? "Signing in…" : "Sign in"}
        </button>
      ) : null}
      <button
        type="button"
        class="secondary"
        onClick={reconnect}
        disabled={busy !== undefined}
        aria-label={`Reconnect ${u.name}`}
      >
        {busy === "reconnect" ? "Reconnecting…" : "Reconnect"}
      </button>
      {signIn && u.needsLogin ? (
        <p class="muted">
          Finish signing in on{" "}
          <a href={signIn} target="_blank" rel="noopener noreferrer">
            the authorization page
          </a>
          ; this upstream connects once you have.
        </p>
      ) : null}
      {problem ? (
        <p class="error" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
