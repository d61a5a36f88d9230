#!/usr/bin/env bash
# End-to-end tests: the release build (dist/) and the example Leptos app (examples/leptos-app)
# in headless Chromium, driven by Playwright, against a scripted AG-UI server written with the
# official Python SDK (tests/e2e/server.py) and a scripted AI SDK chat route built on the npm
# `ai` package (tests/e2e/ai_sdk_server.mjs, the `ai-sdk` target) and a scripted AG-UI server on
# the reference `@ag-ui/encoder` that answers in protobuf or SSE by the Accept header
# (tests/e2e/proto_server.mjs, the `proto` target), and the reference MCP Apps sandbox proxy
# (examples/mcp-sandbox) over https on another port (server.py, the `mcp-proxy` target).
# Installs what it needs by registry (PyPI into target/e2e-venv, npm into tests/e2e).
#
#   scripts/e2e.sh                      # assumes dist/ is built (scripts/test.sh builds it first)
#   E2E_TARGETS=ai-sdk,inline scripts/e2e.sh   # only these targets (tests/e2e/e2e.js names them)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

[ -f dist/index.html ] || { echo "[e2e] dist/ missing: run trunk build --release first" >&2; exit 1; }
[ -f dist/agui-widget_bg.wasm ] || scripts/build-widget.sh
export LEAN_BUDGET_GZIP="${LEAN_BUDGET_GZIP:-220000}"

# shellcheck source=scripts/e2e-env.sh
. scripts/e2e-env.sh

port="${E2E_PORT:-8111}"
# The example Leptos app, built against the crate as `cargo package` makes it (the tarball
# unpacked, default features: what a user of the crate gets), a debug build in the shared
# target directory: it is checked, not measured. Only when its target runs (E2E_TARGETS unset,
# or naming leptos-app).
if [ -z "${E2E_TARGETS:-}" ] || [[ ",${E2E_TARGETS}," == *,leptos-app,* ]]; then
    scripts/packaged-example.sh || exit 1
fi
# Idle until the `ai-sdk` target's turn, which may come late: it stops with this script anyway.
serve_ai_sdk --idle 3600 --max-lifetime 3600
serve_proto --idle 3600 --max-lifetime 3600
example=()
[ -d target/leptos-app-dist ] && example=(--example target/leptos-app-dist)
# The `mcp-proxy` target's sandbox proxy is served over https on another port (another origin)
# with a throwaway self-signed certificate, made here for this run (the browser context of that
# target ignores certificate errors; nothing else trusts it).
sandbox=()
mkdir -p target/e2e
if openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
    -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
    -keyout target/e2e/sandbox-key.pem -out target/e2e/sandbox-cert.pem 2>/dev/null; then
    sandbox=(--sandbox-cert target/e2e/sandbox-cert.pem --sandbox-key target/e2e/sandbox-key.pem)
else
    echo "[e2e] openssl could not make a certificate: no sandbox proxy (the mcp-proxy target fails)" >&2
fi
# The reference thread store (examples/threads-server), a fresh database, on another port (the
# `devices` target: its page is another origin's, with CORS and a token).
rm -f target/e2e/threads.sqlite*
python3 examples/threads-server/server.py --db target/e2e/threads.sqlite --port 0 \
    --allow-origin "http://127.0.0.1:${port}" --token e2e-threads --stop-after 3600 --quiet \
    > target/e2e/threads.log 2>&1 &
_e2e_pids+=("$!")
threads=()
for _ in $(seq 1 50); do
    url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/api/threads' target/e2e/threads.log | head -1 || true)
    if [ -n "$url" ]; then threads=(--threads "$url"); break; fi
    sleep 0.2
done
[ "${#threads[@]}" -gt 0 ] || echo "[e2e] the thread store did not start (the devices target fails)" >&2
serve "$port" --idle 300 "${example[@]}" "${sandbox[@]}" "${threads[@]}" --ai-sdk "$ai_sdk_url" --proto "$proto_url"
node tests/e2e/e2e.js "http://127.0.0.1:${port}" "$ai_sdk_url" "$proto_url"
