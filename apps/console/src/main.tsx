/**
 * The mcpx console: four views of one running daemon, over its control API. The event stream and
 * the elicitation watch stay open while the page is, so the views update live and a question an
 * upstream asks is held for the page to answer (the broker cancels questions nobody watches).
 */
import "./style.css";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import {
  type BrokerEvent,
  keepStreaming,
  type LifecycleEvent,
  type PendingElicitation,
  storedToken,
  storeToken,
} from "./api";
import { EventsView } from "./views/events";
import { ExplorerView } from "./views/explorer";
import { QuestionsView } from "./views/questions";
import { UpstreamsView } from "./views/upstreams";

const VIEWS = ["upstreams", "questions", "explorer", "events"] as const;
type View = (typeof VIEWS)[number];
const TITLES: Record<View, string> = {
  upstreams: "Upstreams",
  questions: "Questions",
  explorer: "Explorer",
  events: "Events",
};
const MAX_EVENTS = 500;

function viewOfHash(): View {
  const h = location.hash.slice(1);
  return (VIEWS as readonly string[]).includes(h) ? (h as View) : "upstreams";
}

function TokenForm(props: { onDone: () => void; wrong: boolean }) {
  const [token, setToken] = useState("");
  return (
    <main class="token">
      <h1>mcpx console</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          storeToken(token.trim());
          props.onDone();
        }}
      >
        <p>
          This mcpx asks for its bearer token (<code>listen.token</code> in its config). It is kept in this
          tab only.
        </p>
        {props.wrong && storedToken() ? (
          <p class="error" role="alert">
            The token was refused.
          </p>
        ) : null}
        <div class="field">
          <label for="token">Token</label>
          <input
            id="token"
            type="password"
            autocomplete="off"
            required
            value={token}
            onInput={(e) => setToken((e.currentTarget as HTMLInputElement).value)}
          />
        </div>
        <button type="submit">Connect</button>
      </form>
    </main>
  );
}

function App() {
  const [view, setView] = useState<View>(viewOfHash);
  const [events, setEvents] = useState<LifecycleEvent[]>([]);
  const [pending, setPending] = useState<PendingElicitation[]>([]);
  const [link, setLink] = useState<"live" | "down" | "unauthorized">("live");
  const [session, setSession] = useState(0);

  useEffect(() => {
    const onHash = () => setView(viewOfHash());
    addEventListener("hashchange", onHash);
    return () => removeEventListener("hashchange", onHash);
  }, []);

  useEffect(() => {
    const stopEvents = keepStreaming<LifecycleEvent>(
      "events?follow=1",
      (e) => setEvents((old) => [...old.slice(-(MAX_EVENTS - 1)), e]),
      setLink,
    );
    const stopQuestions = keepStreaming<BrokerEvent>(
      "elicitations/watch",
      (e) =>
        setPending((old) => {
          if (e.event === "snapshot") return e.pending;
          if (e.event === "pending") return [...old.filter((p) => p.id !== e.elicitation.id), e.elicitation];
          return old.filter((p) => p.id !== e.elicitation.id);
        }),
      () => {},
    );
    return () => {
      stopEvents();
      stopQuestions();
    };
  }, [session]);

  if (link === "unauthorized") {
    return (
      <TokenForm
        wrong
        onDone={() => {
          setLink("live");
          setEvents([]);
          setSession((n) => n + 1);
        }}
      />
    );
  }

  return (
    <>
      <header>
        <h1>mcpx</h1>
        <nav aria-label="Views">
          {VIEWS.map((v) => (
            <a key={v} href={`#${v}`} aria-current={view === v ? "page" : undefined}>
              {TITLES[v]}
              {v === "questions" && pending.length > 0 ? (
                <span class="badge" role="status" aria-label={`${pending.length} waiting`}>
                  {pending.length}
                </span>
              ) : null}
            </a>
          ))}
        </nav>
        <span class={`link ${link}`} role="status">
          {link === "live" ? "live" : "reconnecting…"}
        </span>
      </header>
      {/* Every view stays mounted: a call started in the explorer still shows its result after the
          question it raised was answered in another view. */}
      <main id="view">
        <div hidden={view !== "upstreams"}>
          <UpstreamsView events={events} />
        </div>
        <div hidden={view !== "questions"}>
          <QuestionsView pending={pending} />
        </div>
        <div hidden={view !== "explorer"}>
          <ExplorerView events={events} />
        </div>
        <div hidden={view !== "events"}>
          <EventsView events={events} />
        </div>
      </main>
    </>
  );
}

render(<App />, document.getElementById("app") as HTMLElement);
