#!/usr/bin/env bash
# Browser benchmark: the full chat in headless Chromium streaming 20,000 text deltas into one
# answer, on an empty thread and on one holding 200 earlier messages (benches/browser.rs).
# Release build (the profile `trunk build --release` ships: opt-level "z", LTO; without
# trunk's wasm-opt pass). Prints a table; not part of scripts/test.sh or CI.
#
#   scripts/bench-browser.sh
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Toolchain (sourced so its PATH / CHROMEDRIVER stick).
# shellcheck source=scripts/setup.sh
. scripts/setup.sh

# Four full runs per size take longer than wasm-bindgen-test-runner's default 20 s timeout.
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-600}"

# --nocapture: the runner prints the test's console output (the table) as it runs.
exec cargo test --release --target wasm32-unknown-unknown --test bench_browser --features app -- --nocapture
