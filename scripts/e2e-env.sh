# Sourced by scripts/e2e.sh and scripts/bench-tti.sh: the e2e tools (PyPI into
# target/e2e-venv, npm into tests/e2e; the browser is Debian's chromium) and `serve PORT ARGS…`,
# which starts tests/e2e/server.py on 127.0.0.1:PORT, stops it on exit and waits until it
# answers.
venv=target/e2e-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c 'import ag_ui, fastapi, uvicorn' 2>/dev/null; then
    echo "[e2e] pip install -r tests/e2e/requirements.txt"
    "$venv/bin/pip" install -q -r tests/e2e/requirements.txt
fi
if [ ! -d tests/e2e/node_modules/playwright-core ] || [ ! -d tests/e2e/node_modules/axe-core ] \
    || [ ! -d tests/e2e/node_modules/ai ]; then
    echo "[e2e] npm install (playwright-core, axe-core, ai; the browser is Debian's chromium)"
    (cd tests/e2e && npm install --no-audit --no-fund --silent)
fi

serve() {
    local port="$1"
    shift
    "$venv/bin/python" tests/e2e/server.py --dist dist --port "$port" "$@" &
    server=$!
    trap 'kill "$server" 2>/dev/null || true' EXIT
    for _ in $(seq 1 50); do
        "$venv/bin/python" -c "import urllib.request as u; u.urlopen('http://127.0.0.1:${port}/embed/', timeout=1)" 2>/dev/null && return 0
        sleep 0.2
    done
}
