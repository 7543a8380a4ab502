#!/usr/bin/env bash
# `mcpx elicit` as a person uses it, in tmux: four panes in one window —
#   0  mcpx serve                          the daemon, in front of an upstream that asks for a name
#   1  mcpx elicit watch                   a person attached: each question is printed as it arrives
#   2  mcpx call --daemon demo__ask_name   the tool call, waiting for the answer
#   3  your shell                          mcpx elicit list; mcpx elicit answer <id> --field name=Ada
#
#   tools/e2e/scripts/elicit-demo.sh           sets it up and attaches; you type in pane 3
#                                              (detach with Ctrl-b d to end the demo)
#   tools/e2e/scripts/elicit-demo.sh --auto    types the list and the answer itself, prints every
#                                              pane, and ends
#
# Needs tmux and a built mcpx (pnpm build). tmux runs on a socket of its own; only that server is
# ended, and the temporary directory removed, when the demo ends.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
BIN="$ROOT/apps/cli/dist/bin.js"
UPSTREAM="$ROOT/tools/e2e/scripts/ask-name-server.mjs"
AUTO=0
[ "${1:-}" = "--auto" ] && AUTO=1

command -v tmux >/dev/null || { echo "elicit-demo: tmux is not installed (apt-get install -y tmux)" >&2; exit 1; }
[ -f "$BIN" ] || { echo "elicit-demo: $BIN is missing: run pnpm build first" >&2; exit 1; }

DIR="$(mktemp -d "${TMPDIR:-/tmp}/mcpx-elicit-demo.XXXXXX")"
T() { tmux -S "$DIR/tmux.sock" "$@"; }
cleanup() {
  for pane in 0 1 2; do T send-keys -t "demo:0.$pane" C-c 2>/dev/null || true; done
  sleep 0.3
  T kill-server 2>/dev/null || true
  rm -rf "$DIR"
}
trap cleanup EXIT

PORT="$(node -e 'const s=require("node:net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
cat >"$DIR/mcpx.json" <<JSON
{
  "listen": { "host": "127.0.0.1", "port": $PORT },
  "servers": { "demo": { "command": "node", "args": ["$UPSTREAM"] } },
  "stateDir": ".state"
}
JSON
# Each pane: a plain bash, prompt "$ ", and `mcpx` meaning the built CLI.
printf 'PS1="$ "\nunset HISTFILE\nmcpx() { node "%s" "$@"; }\n' "$BIN" >"$DIR/rc"
PANE_SHELL="bash --noprofile --rcfile $DIR/rc -i"

T -f /dev/null new-session -d -s demo -x 200 -y 60 -c "$DIR" "$PANE_SHELL"
for _ in 1 2 3; do T split-window -v -t demo:0 -c "$DIR" "$PANE_SHELL"; done
T select-layout -t demo:0 even-vertical

type_in() { T send-keys -t "demo:0.$1" -l "$2"; T send-keys -t "demo:0.$1" Enter; }
screen() { T capture-pane -p -J -S - -t "demo:0.$1"; }
wait_for() {
  for _ in $(seq 200); do
    screen "$1" | grep -Eq "$2" && return 0
    sleep 0.1
  done
  echo "elicit-demo: pane $1 never showed /$2/:" >&2
  screen "$1" >&2
  return 1
}

type_in 0 "mcpx serve"
wait_for 0 "mcpx listening at"
type_in 1 "mcpx elicit watch"
wait_for 1 "watching for elicitations"
type_in 2 "mcpx call --daemon demo__ask_name"
wait_for 1 "What is your name"

if [ "$AUTO" = 0 ]; then
  type_in 3 "# your turn: mcpx elicit list, then mcpx elicit answer <id> --field name=Ada (detach: Ctrl-b d)"
  T select-pane -t demo:0.3
  T attach -t demo
  exit 0
fi

type_in 3 "mcpx elicit list"
wait_for 3 "answer: mcpx elicit answer"
ID="$(screen 3 | sed -nE 's/^  ([0-9a-f]{8})  form  from demo.*/\1/p' | head -n 1)"
type_in 3 "mcpx elicit answer $ID --field name=Ada"
wait_for 2 "^Hello, Ada!$"
wait_for 1 "$ID  form  from demo: accept"
for pane in 0 1 2 3; do
  echo "=== pane $pane ==="
  screen "$pane" | sed -e '/^$/d'
done
