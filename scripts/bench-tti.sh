#!/usr/bin/env bash
# Time-to-interactive benchmark (tests/e2e/bench_tti.js): the release build in headless
# Chromium, served gzip-compressed by tests/e2e/server.py --gzip, unthrottled and on the
# "Fast 4G" profile. Prints a table and writes target/bench/tti.json; not part of
# scripts/test.sh or CI. Needs dist/ with the lean widget (scripts/test.sh trunk-build-release,
# or scripts/build-release.sh).
#
#   scripts/bench-tti.sh              # TTI_RUNS=7 runs per row; TTI_CPU=4 slows the CPU 4×
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

[ -f dist/index.html ] && [ -f dist/agui-widget_bg.wasm ] || {
    echo "[bench-tti] dist/ with the lean widget is missing: run scripts/test.sh trunk-build-release" >&2
    exit 1
}
# shellcheck source=scripts/e2e-env.sh
. scripts/e2e-env.sh
port="${TTI_PORT:-8112}"
serve "$port" --idle 120 --gzip
node tests/e2e/bench_tti.js "http://127.0.0.1:${port}"
