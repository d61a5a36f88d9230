#!/usr/bin/env bash
# Browser benchmark of long threads: a 1,000-message MESSAGES_SNAPSHOT, a 2,000-delta answer at
# its end (and in an empty thread), and opening a saved 1,000-message thread, in headless
# Chromium (benches/long_thread.rs). Release build, as scripts/bench-browser.sh. Prints a
# table; not part of scripts/test.sh or CI.
#
#   scripts/bench-long-thread.sh
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# shellcheck source=scripts/setup.sh
. scripts/setup.sh

export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-600}"

exec cargo test --release --target wasm32-unknown-unknown --test bench_long_thread --features app -- --nocapture
