#!/usr/bin/env bash
# The packed npm tarball in the host apps of examples/hosts/, each built with its own tooling:
# Vite + React 19 + TypeScript (strict `tsc --noEmit` against the package's declarations), Vite
# + Vue 3, webpack 5 (the React app; build only: every asset of the package emitted) and a
# plain HTML page loading dist/cdn/agui-chat.js from another origin. Then the React, Vue and
# plain hosts in Chromium against the Python-SDK agent (the `host-*` targets of
# tests/e2e/e2e.js). Run after scripts/build-release.sh (it packs dist/ with scripts/package.sh).
#
#   scripts/hosts.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

_t0=$SECONDS
tarball="$(scripts/package.sh | tail -n 1)"
tarball="$(realpath "$tarball")"
echo "[hosts] packed: $tarball ($((SECONDS - _t0)) s)"

# Each host from its lockfile, then the tarball as a site would add it.
install() {
    local host="examples/hosts/$1" t=$SECONDS
    (cd "$host" && npm ci --no-audit --no-fund --silent &&
        npm install --no-save --no-audit --no-fund --silent "$tarball") || return
    # What was installed is the tarball's, not the source tree's.
    cmp -s "$host/node_modules/agui-leptos/dist/cdn/agui-widget_bg.wasm" target/npm/package/dist/cdn/agui-widget_bg.wasm ||
        { echo "[hosts] $host: agui-leptos is not the packed tarball's" >&2; return 1; }
    echo "[hosts] $1: installed ($((SECONDS - t)) s)"
}
# Every asset the package loads must be in a host's build output, whatever the bundler named
# it: the lean glue, its wasm, every module and the pack (by content, not by name).
emitted() {
    local out="$1" f missing=0
    for f in target/npm/package/dist/cdn/agui-widget_bg.wasm target/npm/package/dist/cdn/agui-widget.*.wasm \
        target/npm/package/dist/cdn/agui-widget.chunks.bin; do
        if ! find "$out" -type f -size "$(stat -c %s "$f")c" -exec cmp -s "$f" {} \; -print | grep -q .; then
            echo "[hosts] $out: $(basename "$f") was not emitted" >&2
            missing=1
        fi
    done
    # The full build is never referenced by the default entry: nothing of it is emitted.
    if find "$out" -type f -size "$(stat -c %s target/npm/package/dist/cdn/agui-leptos_bg.wasm)c" | grep -q .; then
        echo "[hosts] $out: the full build was emitted by the default entry" >&2
        missing=1
    fi
    return "$missing"
}

for h in react vue webpack; do install "$h"; done

t=$SECONDS
(cd examples/hosts/react && npx --no-install tsc --noEmit)
echo "[hosts] react: tsc --noEmit (strict) ok ($((SECONDS - t)) s)"
for h in react vue webpack; do
    t=$SECONDS
    (cd "examples/hosts/$h" && npm run --silent build >/dev/null)
    emitted "examples/hosts/$h/dist"
    echo "[hosts] $h: built, every asset emitted ($((SECONDS - t)) s)"
done

# Importing the React entry where there is no DOM (server rendering) touches no window.
(cd examples/hosts/react && node --input-type=module -e "
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { AguiChat } from 'agui-leptos/react';
const html = renderToString(createElement(AguiChat, { endpoint: '/agent', mode: 'inline', tools: [] }));
if (!html.startsWith('<agui-chat')) throw new Error('server rendering gave ' + html);
console.log('[hosts] react: server rendering ok: ' + html);
")

# `vite dev` too (no configuration; <StrictMode> is active in dev): a server that stops itself.
devport="${HOSTS_DEV_PORT:-8132}"
(cd examples/hosts/react && exec timeout 120 npx --no-install vite --port "$devport" --strictPort \
    --host 127.0.0.1 >/dev/null 2>&1) &
devpid=$!
for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$devport") 2>/dev/null && break
    sleep 0.2
done
NODE_PATH=tests/e2e/node_modules node tests/e2e/vite_dev.js "http://127.0.0.1:${devport}/" || { kill "$devpid"; exit 1; }
kill "$devpid" 2>/dev/null || true

# The browser checks, against the Python SDK's agent (the page's origin) and the CDN folder of
# the installed package on another origin.
export LEAN_BUDGET_GZIP="${LEAN_BUDGET_GZIP:-220000}"
# shellcheck source=scripts/e2e-env.sh
. scripts/e2e-env.sh
port="${HOSTS_PORT:-8131}"
serve "$port" --idle 300 --hosts examples/hosts --cdn examples/hosts/react/node_modules/agui-leptos
E2E_TARGETS=host-react,host-vue,host-plain,host-assets,host-full node tests/e2e/e2e.js "http://127.0.0.1:${port}"
echo "[hosts] done in $((SECONDS - _t0)) s"
