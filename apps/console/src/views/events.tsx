/** The lifecycle log, live, filtered by upstream, kind and level. */
import { useState } from "preact/hooks";
import type { LifecycleEvent } from "../api";

/**
 * Lifecycle events carry no level; the console gives them one, as the daemon's log would: an
 * upstream that failed or dropped is an error, a server's warning, a timeout or a session refused
 * or evicted a warning, the rest information.
 */
const LEVELS = ["info", "warning", "error"] as const;
type Level = (typeof LEVELS)[number];
const ERRORS = /\.(failed|disconnected)$/;
const WARNINGS = /\.(warning|timedOut|refused|evicted)$/;

export function levelOf(type: string): Level {
  return ERRORS.test(type) ? "error" : WARNINGS.test(type) ? "warning" : "info";
}

function detail(e: LifecycleEvent): string {
  const { seq: _s, time: _t, type: _ty, upstream: _u, ...rest } = e;
  return Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" ");
}

export function EventsView(props: { events: LifecycleEvent[] }) {
  const [upstream, setUpstream] = useState("");
  const [kind, setKind] = useState("");
  // The least level shown: "warning" shows warnings and errors.
  const [level, setLevel] = useState<Level>("info");
  const upstreams = [...new Set(props.events.map((e) => e.upstream).filter((u): u is string => !!u))];
  const kinds = [...new Set(props.events.map((e) => e.type.split(".")[0] ?? e.type))];
  const shown = props.events.filter(
    (e) =>
      (!upstream || e.upstream === upstream) &&
      (!kind || e.type.startsWith(`${kind}.`)) &&
      LEVELS.indexOf(levelOf(e.type)) >= LEVELS.indexOf(level),
  );
  return (
    <section>
      <h2>Events</h2>
      <div class="filters">
        <div class="field">
          <label for="events-upstream">Upstream</label>
          <select id="events-upstream" value={upstream} onChange={(e) => setUpstream(e.currentTarget.value)}>
            <option value="">all</option>
            {upstreams.map((u) => (
              <option key={u}>{u}</option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="events-kind">Kind</label>
          <select id="events-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
            <option value="">all</option>
            {kinds.map((k) => (
              <option key={k}>{k}</option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="events-level">Level</label>
          <select id="events-level" value={level} onChange={(e) => setLevel(e.currentTarget.value as Level)}>
            <option value="info">all</option>
            <option value="warning">warnings and errors</option>
            <option value="error">errors</option>
          </select>
        </div>
      </div>
      <ol class="events" aria-live="polite" aria-label="Events">
        {[...shown].reverse().map((e) => (
          <li key={e.seq} class={levelOf(e.type)} data-level={levelOf(e.type)}>
            <time>{e.time.slice(11, 19)}</time> <span class="level">{levelOf(e.type)}</span>{" "}
            <strong>{e.type}</strong> {e.upstream ? <em>{e.upstream}</em> : null} <span>{detail(e)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
