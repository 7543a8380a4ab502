/**
 * Questions upstreams are waiting on (the elicitation broker's queue): a form from the requested
 * schema, or a link for url mode; accept, decline or cancel as `mcpx elicit answer` does.
 */
import { useState } from "preact/hooks";
import { type PendingElicitation, post } from "../api";
import { SchemaForm } from "../schema-form";

function Question(props: { q: PendingElicitation }) {
  const { q } = props;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const answer = async (action: "accept" | "decline" | "cancel", content?: Record<string, unknown>) => {
    setBusy(true);
    try {
      await post(
        `elicitations/${encodeURIComponent(q.id)}/answer`,
        content ? { action, content } : { action },
      );
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };
  const others = (
    <>
      <button type="button" class="secondary" disabled={busy} onClick={() => answer("decline")}>
        Decline
      </button>
      <button type="button" class="secondary" disabled={busy} onClick={() => answer("cancel")}>
        Cancel
      </button>
    </>
  );
  return (
    <li class="card question" data-question={q.id}>
      <h3>
        {q.upstream} asks <span class="muted">({q.mode})</span>
      </h3>
      <p class="message">{q.message}</p>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      {q.mode === "url" ? (
        <>
          <p>
            <a href={q.url} target="_blank" rel="noopener noreferrer">
              Open {q.host ?? q.url}
            </a>
          </p>
          <div class="actions">
            <button type="button" disabled={busy} onClick={() => answer("accept")}>
              Done
            </button>
            {others}
          </div>
        </>
      ) : (
        <SchemaForm
          schema={q.requestedSchema ?? { type: "object", properties: {} }}
          idPrefix={`q-${q.id}`}
          submitLabel="Submit"
          busy={busy}
          onSubmit={(values) => answer("accept", values)}
        >
          {others}
        </SchemaForm>
      )}
    </li>
  );
}

export function QuestionsView(props: { pending: PendingElicitation[] }) {
  return (
    <section>
      <h2>Questions</h2>
      {props.pending.length === 0 ? (
        <p class="muted">No upstream is waiting for an answer.</p>
      ) : (
        <ul class="cards" aria-label="Waiting questions">
          {props.pending.map((q) => (
            <Question key={q.id} q={q} />
          ))}
        </ul>
      )}
    </section>
  );
}
