# Sourced by scripts/e2e.sh and scripts/bench-tti.sh: the e2e tools (PyPI into
# target/e2e-venv, npm into tests/e2e; the browser is Debian's chromium), `serve PORT ARGS…`,
# which starts tests/e2e/server.py on 127.0.0.1:PORT, stops it on exit and waits until it
# answers, and `serve_ai_sdk ARGS…`, which starts the AI SDK server (tests/e2e/ai_sdk_server.mjs)
# on a port of the system's choosing on 127.0.0.1 and sets `ai_sdk_url` (http://127.0.0.1:PORT),
# and `serve_proto ARGS…`, the same for the protobuf binding's server (tests/e2e/proto_server.mjs,
# `@ag-ui/encoder`), setting `proto_url`.
venv=target/e2e-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c 'import ag_ui, fastapi, uvicorn' 2>/dev/null; then
    echo "[e2e] pip install -r tests/e2e/requirements.txt"
    "$venv/bin/pip" install -q -r tests/e2e/requirements.txt
fi
if [ ! -d tests/e2e/node_modules/playwright-core ] || [ ! -d tests/e2e/node_modules/axe-core ] \
    || [ ! -d tests/e2e/node_modules/ai ] || [ ! -d tests/e2e/node_modules/@ag-ui/encoder ]; then
    echo "[e2e] npm install (playwright-core, axe-core, ai, @ag-ui/*; the browser is Debian's chromium)"
    (cd tests/e2e && npm install --no-audit --no-fund --silent)
fi

# What the servers started here are: stopped on exit.
_e2e_pids=()
_e2e_stop() {
    [ "${#_e2e_pids[@]}" -eq 0 ] || kill "${_e2e_pids[@]}" 2>/dev/null || true
}
trap _e2e_stop EXIT

serve() {
    local port="$1"
    shift
    "$venv/bin/python" tests/e2e/server.py --dist dist --port "$port" "$@" &
    server=$!
    _e2e_pids+=("$server")
    for _ in $(seq 1 50); do
        "$venv/bin/python" -c "import urllib.request as u; u.urlopen('http://127.0.0.1:${port}/embed/', timeout=1)" 2>/dev/null && return 0
        sleep 0.2
    done
}

serve_ai_sdk() {
    # A coprocess: its stdin is a pipe this shell holds, so with --watch-stdin it stops when
    # this shell is gone however it ends (and on exit it is killed as well). The first line
    # it prints is `listening 127.0.0.1:PORT`.
    coproc AI_SDK { exec node tests/e2e/ai_sdk_server.mjs --port 0 --watch-stdin "$@"; }
    _e2e_pids+=("$AI_SDK_PID")
    local line=""
    read -r -t 30 line <&"${AI_SDK[0]}" || true
    if [[ "$line" =~ ^listening\ 127\.0\.0\.1:([0-9]+)$ ]]; then
        ai_sdk_url="http://127.0.0.1:${BASH_REMATCH[1]}"
        echo "[e2e] AI SDK server at ${ai_sdk_url}"
    else
        echo "[e2e] the AI SDK server did not start (said: '${line}')" >&2
        return 1
    fi
}

serve_proto() {
    # As serve_ai_sdk, with --watch-stdin on a pipe this shell holds, but not a second coproc
    # (bash keeps one at a time): its stdin is a process substitution's pipe, its stdout a FIFO
    # this shell keeps open (read-write, so opening it does not block) and removes at once.
    local fifo line=""
    fifo="$(mktemp -u "${TMPDIR:-/tmp}/e2e-proto.XXXXXX")"
    mkfifo "$fifo"
    exec {_proto_out}<>"$fifo"
    exec {_proto_in}> >(exec node tests/e2e/proto_server.mjs --port 0 --watch-stdin "$@" >"$fifo")
    _e2e_pids+=("$!")
    read -r -t 30 line <&"$_proto_out" || true
    rm -f "$fifo"
    if [[ "$line" =~ ^listening\ 127\.0\.0\.1:([0-9]+)$ ]]; then
        proto_url="http://127.0.0.1:${BASH_REMATCH[1]}"
        echo "[e2e] protobuf AG-UI server at ${proto_url}"
    else
        echo "[e2e] the protobuf AG-UI server did not start (said: '${line}')" >&2
        return 1
    fi
}
