#!/usr/bin/env bash
# The one test command (also what .ci/run executes).
#
#   scripts/test.sh                 # everything, in order, failing fast
#   scripts/test.sh fmt 'clippy*'   # only the stages whose name matches a glob
#
# Stages: setup -> fmt -> native build/tests -> native fuzz (release) -> clippy (native +
# wasm32) -> browser tests (every tests/web/*.rs, headless Chromium) -> trunk release
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

# Size budgets (docs/dev/size.md), gzip -9 bytes of what `trunk build --release` ships in dist/:
# the app bundle (wasm + glue + snippets). The trunk-build-release stage fails above it.
SIZE_BUDGET_GZIP=${SIZE_BUDGET_GZIP:-1100000}
# What a host page loads before its popup is opened: the loader alone (it draws the launcher).
LOADER_BUDGET_GZIP=${LOADER_BUDGET_GZIP:-3850}
# The lean widget bundle (scripts/build-widget.sh): what a host page fetches when its chat opens.
LEAN_BUDGET_GZIP=${LEAN_BUDGET_GZIP:-220000}
export LEAN_BUDGET_GZIP
# What a page has fetched when the first answer streams: the loader, the lean widget, `run` and
# the chunks it shares (scripts/size-report.py). Issue 33's goal is 400,000; this is today's
# figure plus 1.5%, so that it only goes down.
FIRST_ANSWER_BUDGET_GZIP=${FIRST_ANSWER_BUDGET_GZIP:-725000}
# Its modules (agui-widget.*.wasm, src/ui/lazy.rs), in all: each is fetched the first time its
# part shows (`run` — the conversation: rows, Markdown, tool cards, the run itself — when the
# person starts typing or something saved shows; an interrupt, state, the settings form, the
# queue, an activity, an attachment, a warning, an edit, an A2UI surface, an MCP App, a
# protobuf response; a language but English, a page's own texts).
LEAN_MODULES_BUDGET_GZIP=${LEAN_MODULES_BUDGET_GZIP:-890000}

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

# Every cargo stage builds with the app's features (Cargo.toml: the demo agent and the
# inspector, which many tests drive); the library's own defaults are built by the `docs-rs`
# stage and the lean widget's by `clippy-wasm32-lean`.
# Build every native target (lib, bins, tests, examples, benches) without
# running anything: benchmark mains must not run here.
native_build_all() { cargo test --all-targets --no-run --features app; }

# Run native tests: lib, bins, integration tests and doc tests. (Examples are
# built but not run; benches are not run.)
native_test() { cargo test --features app; }

browser_test() { cargo test --target wasm32-unknown-unknown --test "$1" --features app; }

# The same kind of test file through wasm-pack (the user's package set names it): headless
# Chrome, the installed chromedriver and wasm-bindgen, nothing downloaded.
WASM_PACK_TEST=web_widget
wasm_pack_test() {
    wasm-pack test --headless --chrome --chromedriver "$CHROMEDRIVER" --mode no-install . \
        --test "$1" --features app
}

# NB: stage functions run in a `||` context, where bash ignores `set -e`:
# check every step explicitly (`|| return`).
# gzip -9 bytes of the files given.
gz_total() {
    local f total=0
    for f in "$@"; do
        total=$((total + $(gzip -9 -c "$f" | wc -c)))
    done
    echo "$total"
}

# Fail when $2 (bytes) is over $3 (budget), naming $1.
check_budget() {
    printf '%s: %s bytes gzip-9, budget %s (%s%%)\n' "$1" "$2" "$3" "$(($2 * 100 / $3))"
    if [ "$2" -gt "$3" ]; then
        printf '%s%s is over its budget by %s bytes%s\n' "$_RED" "$1" "$(($2 - $3))" "$_OFF" >&2
        return 1
    fi
}

trunk_release() {
    scripts/build-release.sh || return
    _banner "dist/ asset sizes"
    local f files=()
    mapfile -t files < <(find dist -type f \( -name '*.wasm' -o -name '*.bin' -o -name '*.js' -o -name '*.css' \) \
        ! -path 'dist/embed/*' | sort)
    printf '%-56s %12s %12s\n' file raw gzip-9
    for f in "${files[@]}"; do
        printf '%-56s %12s %12s\n' "$f" "$(stat -c %s "$f")" "$(gzip -9 -c "$f" | wc -c)"
    done
    ls dist/agui-leptos_bg.wasm dist/agui-widget_bg.wasm >/dev/null || return
    # Each bundle's own JS snippets (build-widget.sh keeps the lean one's apart).
    local lean_snippets=(dist/snippets/agui-widget-*/*.js) app_snippets=(dist/snippets/agui-leptos-*/*.js)
    # 1. What a host page loads before its popup is opened: the loader alone.
    check_budget "before a popup opens (agui-chat.js)" \
        "$(gz_total dist/agui-chat.js)" "$LOADER_BUDGET_GZIP" || return
    # 2. What it fetches when the chat opens: the lean bundle.
    check_budget "the lean widget (agui-widget_bg.wasm + glue)" \
        "$(gz_total dist/agui-widget_bg.wasm dist/agui-widget.js "${lean_snippets[@]}")" \
        "$LEAN_BUDGET_GZIP" || return
    # 2b. What it fetches later, part by part (each module is listed above).
    local modules=(dist/agui-widget.*.wasm dist/agui-widget.chunks.bin)
    [ -f "${modules[0]}" ] && [ -f dist/agui-widget.chunks.bin ] ||
        { echo "no dist/agui-widget.*.wasm and chunks.bin: the lean widget is not split" >&2; return 1; }
    check_budget "the lean widget's modules (agui-widget.*.wasm + chunks.bin, on first use)" \
        "$(gz_total "${modules[@]}")" "$LEAN_MODULES_BUDGET_GZIP" || return
    # 3. The app's own page (everything: demo, inspector, every language).
    check_budget "the app (agui-leptos_bg.wasm + glue)" \
        "$(gz_total dist/agui-leptos_bg.wasm dist/agui-leptos.js "${app_snippets[@]}")" \
        "$SIZE_BUDGET_GZIP" || return
    # 4. Where the lean widget's bytes go, and what a page has fetched at its first answer
    # (the build above kept the names: no second build).
    _banner "the lean widget's size report (scripts/size-report.py)"
    python3 scripts/size-report.py --budget "$FIRST_ANSWER_BUDGET_GZIP" || return
}

# --- stages (append new ones at the end) --------------------------------------

stage fmt cargo fmt --all -- --check
# The reference thread-store server (examples/threads-server; Python stdlib, 127.0.0.1 only).
stage threads-server python3 -m unittest discover -s examples/threads-server
stage native-build-all-targets native_build_all
stage native-test native_test
# The fuzz suite's full budget (tests/fuzz.rs; `cargo test` above runs it at 1/25 scale).
stage native-fuzz cargo test --release --test fuzz --features app
stage clippy-native cargo clippy --workspace --all-targets --features agui-leptos/app -- -D warnings
stage clippy-wasm32 cargo clippy --target wasm32-unknown-unknown --workspace --lib --bins --features agui-leptos/app -- -D warnings
# The lean widget as it is built: split into modules (src/ui/lazy.rs; its own target directory,
# other rustflags than the stage above).
stage clippy-wasm32-lean env RUSTFLAGS="--cfg erase_components --cfg agui_split" \
    cargo clippy --target wasm32-unknown-unknown --lib --no-default-features \
    --features ai-sdk,protobuf,a2ui,mcp-apps --target-dir target/clippy-lean -- -D warnings

# The crate as docs.rs documents it (wasm32, the library's default features): no broken or
# private link in the docs of its public items.
stage docs-rs env RUSTDOCFLAGS="-D warnings" \
    cargo doc --no-deps --target wasm32-unknown-unknown --lib
# The crate as `cargo package` makes it builds from its own tarball (the packaged example is
# built by the e2e stage: scripts/packaged-example.sh).
stage crate-package cargo package --allow-dirty

shopt -s nullglob
_web_tests=(tests/web/*.rs)
shopt -u nullglob
for _t in "${_web_tests[@]}"; do
    _stem="web_$(basename "$_t" .rs)"
    if [ "$_stem" = "$WASM_PACK_TEST" ]; then
        stage "browser-test:${_stem}:wasm-pack" wasm_pack_test "$_stem"
    else
        stage "browser-test:${_stem}" browser_test "$_stem"
    fi
done

stage trunk-build-release trunk_release

# The built app against a real AG-UI server (the official Python SDK), in Chromium.
stage e2e-real-server scripts/e2e.sh

# The npm package, packed from dist/ (scripts/package.sh) and installed into the host apps of
# examples/hosts (React 19 + TypeScript and Vue 3 with Vite, the React app with webpack 5, a
# plain page loading the CDN folder from another origin), each built with its own tooling and
# driven in Chromium.
stage npm-package-hosts scripts/hosts.sh

# The docs: their links and anchors (scripts/check-docs.py), and the book (mdbook).
docs() {
    python3 scripts/check-docs.py || return
    mdbook build docs
}
stage docs docs

_print_summary
printf '\n%sall stages passed%s\n' "$_GREEN" "$_OFF"
