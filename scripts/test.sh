#!/usr/bin/env bash
# The one test command (also what .ci/run executes).
#
#   scripts/test.sh                 # everything, in order, failing fast
#   scripts/test.sh fmt 'clippy*'   # only the stages whose name matches a glob
#
# Stages: setup -> fmt -> native build/tests -> clippy (native + wasm32) ->
# browser tests (every tests/web_*.rs, headless Chromium) -> trunk release
# build + asset sizes. To add a stage, append a `stage NAME command...` line
# (or a shell function + `stage NAME my_function`) at the end of this file.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Toolchain (sourced so its PATH / CHROMEDRIVER / TRUNK_SKIP_VERSION_CHECK stick).
_setup_t0=$SECONDS
# shellcheck source=scripts/setup.sh
. scripts/setup.sh
_setup_secs=$((SECONDS - _setup_t0))

export TRUNK_SKIP_VERSION_CHECK=true
# wasm-bindgen-test-runner gives a whole test file 20 s by default; the thread and inspector
# files drive several full demo runs and a loaded CI machine needs more.
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-180}"

# Size budgets (README "Size"), gzip -9 bytes of what `trunk build --release` ships in dist/:
# the app bundle (wasm + glue + snippets). The trunk-build-release stage fails above it.
SIZE_BUDGET_GZIP=${SIZE_BUDGET_GZIP:-690000}
# What a host page loads before its popup is opened: the loader alone (it draws the launcher).
LOADER_BUDGET_GZIP=${LOADER_BUDGET_GZIP:-4200}

# Colours only on a terminal (CI logs stay plain).
if [ -t 1 ]; then
    _B=$'\033[1m' _RED=$'\033[1;31m' _GREEN=$'\033[32m' _OFF=$'\033[0m'
else
    _B='' _RED='' _GREEN='' _OFF=''
fi

STAGE_FILTER=("$@")
STAGE_SUMMARY=("$(printf '%-34s %6ss  %s' setup "$_setup_secs" ok)")

_now_ms() { date +%s%3N; }
_banner() {
    printf '\n%s==================== %s ====================%s\n' "$_B" "$*" "$_OFF"
}
_print_summary() {
    printf '\n%s-------------------- summary --------------------%s\n' "$_B" "$_OFF"
    printf '%s\n' "${STAGE_SUMMARY[@]}"
}
_selected() {
    [ "${#STAGE_FILTER[@]}" -eq 0 ] && return 0
    local pat
    for pat in "${STAGE_FILTER[@]}"; do
        # shellcheck disable=SC2053
        [[ "$1" == $pat ]] && return 0
    done
    return 1
}

# stage NAME cmd [args...]: run one stage with a banner and timing; stop the
# whole run (non-zero exit) on the first failing stage.
stage() {
    local name="$1"
    shift
    _selected "$name" || return 0
    _banner "stage: ${name}"
    printf '$ %s\n' "$*"
    local t0 rc=0 secs
    t0=$(_now_ms)
    "$@" || rc=$?
    secs=$(awk -v ms="$(($(_now_ms) - t0))" 'BEGIN { printf "%.1f", ms / 1000 }')
    if [ "$rc" -ne 0 ]; then
        STAGE_SUMMARY+=("$(printf '%-34s %6ss  FAILED (exit %d)' "$name" "$secs" "$rc")")
        _print_summary
        printf '\n%s*** FAILED: stage %s (exit %d) ***%s\n' "$_RED" "$name" "$rc" "$_OFF" >&2
        exit "$rc"
    fi
    STAGE_SUMMARY+=("$(printf '%-34s %6ss  ok' "$name" "$secs")")
    printf '%s--- stage %s ok (%ss)%s\n' "$_GREEN" "$name" "$secs" "$_OFF"
}

# --- stage helpers ------------------------------------------------------------

# Build every native target (lib, bins, tests, examples, benches) without
# running anything: benchmark mains must not run here.
native_build_all() { cargo test --all-targets --no-run; }

# Run native tests: lib, bins, integration tests and doc tests. (Examples are
# built but not run; benches are not run.)
native_test() { cargo test; }

browser_test() { cargo test --target wasm32-unknown-unknown --test "$1"; }

# The same kind of test file through wasm-pack (the user's package set names it): headless
# Chrome, the installed chromedriver and wasm-bindgen, nothing downloaded.
WASM_PACK_TEST=web_widget
wasm_pack_test() {
    wasm-pack test --headless --chrome --chromedriver "$CHROMEDRIVER" --mode no-install . \
        --test "$1"
}

# NB: stage functions run in a `||` context, where bash ignores `set -e`:
# check every step explicitly (`|| return`).
trunk_release() {
    trunk build --release || return
    _banner "dist/ asset sizes"
    local f raw gz total_raw=0 total_gz=0 files=()
    # What the app page loads (the loader is a host page's, counted apart below): the wasm,
    # the wasm-bindgen glue and its snippets, CSS.
    mapfile -t files < <(find dist -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' \) \
        ! -name agui-chat.js ! -path 'dist/embed/*' | sort)
    printf '%-48s %12s %12s\n' file raw gzip-9
    for f in "${files[@]}"; do
        raw=$(stat -c %s "$f") || return
        gz=$(gzip -9 -c "$f" | wc -c) || return
        total_raw=$((total_raw + raw))
        total_gz=$((total_gz + gz))
        printf '%-48s %12s %12s\n' "$f" "$raw" "$gz"
    done
    printf '%-48s %12s %12s\n' total "$total_raw" "$total_gz"
    ls dist/*.wasm >/dev/null 2>&1 || {
        echo "no .wasm in dist/" >&2
        return 1
    }
    printf 'size budget: %s bytes gzip-9, the app bundle (wasm + glue), budget %s (%s%%)\n' \
        "$total_gz" "$SIZE_BUDGET_GZIP" "$((total_gz * 100 / SIZE_BUDGET_GZIP))"
    if [ "$total_gz" -gt "$SIZE_BUDGET_GZIP" ]; then
        printf '%sover the size budget by %s bytes (SIZE_BUDGET_GZIP in scripts/test.sh)%s\n' \
            "$_RED" "$((total_gz - SIZE_BUDGET_GZIP))" "$_OFF" >&2
        return 1
    fi
    local loader_gz
    loader_gz=$(gzip -9 -c dist/agui-chat.js | wc -c) || return
    printf 'before a popup opens (dist/agui-chat.js): %s bytes gzip-9, budget %s (%s%%)\n' \
        "$loader_gz" "$LOADER_BUDGET_GZIP" "$((loader_gz * 100 / LOADER_BUDGET_GZIP))"
    if [ "$loader_gz" -gt "$LOADER_BUDGET_GZIP" ]; then
        printf '%sthe loader is over its budget by %s bytes (LOADER_BUDGET_GZIP)%s\n' \
            "$_RED" "$((loader_gz - LOADER_BUDGET_GZIP))" "$_OFF" >&2
        return 1
    fi
}

# --- stages (append new ones at the end) --------------------------------------

stage fmt cargo fmt --all -- --check
stage native-build-all-targets native_build_all
stage native-test native_test
stage clippy-native cargo clippy --workspace --all-targets -- -D warnings
stage clippy-wasm32 cargo clippy --target wasm32-unknown-unknown --workspace --lib --bins -- -D warnings

shopt -s nullglob
_web_tests=(tests/web_*.rs)
shopt -u nullglob
for _t in "${_web_tests[@]}"; do
    _stem="$(basename "$_t" .rs)"
    if [ "$_stem" = "$WASM_PACK_TEST" ]; then
        stage "browser-test:${_stem}:wasm-pack" wasm_pack_test "$_stem"
    else
        stage "browser-test:${_stem}" browser_test "$_stem"
    fi
done

stage trunk-build-release trunk_release

# The built app against a real AG-UI server (the official Python SDK), in Chromium.
stage e2e-real-server scripts/e2e.sh

_print_summary
printf '\n%sall stages passed%s\n' "$_GREEN" "$_OFF"
