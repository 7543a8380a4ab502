/** The lifecycle log, live, filtered by upstream and by kind. */
import { useState } from "preact/hooks";
import type { LifecycleEvent } from "../api";

/** Lifecycle events carry no level: these are the ones that say something went wrong. */
const WARNINGS = /\.(failed|disconnected|warning|timedOut|refused|evicted)$/;

function detail(e: LifecycleEvent): string {
  const { seq: _s, time: _t, type: _ty, upstream: _u, ...rest } = e;
  return Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" ");
}

export function EventsView(props: { events: LifecycleEvent[] }) {
  const [upstream, setUpstream] = useState("");
  const [kind, setKind] = useState("");
  const [level, setLevel] = useState("");
  const upstreams = [...new Set(props.events.map((e) => e.upstream).filter((u): u is string => !!u))];
  const kinds = [...new Set(props.events.map((e) => e.type.split(".")[0] ?? e.type))];
  const shown = props.events.filter(
    (e) =>
      (!upstream || e.upstream === upstream) &&
      (!kind || e.type.startsWith(`${kind}.`)) &&
      (!level || WARNINGS.test(e.type)),
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
          <select id="events-level" value={level} onChange={(e) => setLevel(e.currentTarget.value)}>
            <option value="">all</option>
            <option value="warn">warnings</option>
          </select>
        </div>
      </div>
      <ol class="events" aria-live="polite" aria-label="Events">
        {[...shown].reverse().map((e) => (
          <li key={e.seq} class={WARNINGS.test(e.type) ? "bad" : ""}>
            <time>{e.time.slice(11, 19)}</time> <strong>{e.type}</strong>{" "}
            {e.upstream ? <em>{e.upstream}</em> : null} <span>{detail(e)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
