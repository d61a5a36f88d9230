#!/usr/bin/env bash
# Bring a Debian 12 machine (Rust toolchain, Node 20, Python 3 present) to a
# state where the app builds, serves and tests. Idempotent: every step is
# skipped when the right version is already there, so a second run takes
# seconds. Uses registry installs only (crates.io, npm, Debian apt).
#
#   scripts/setup.sh           # run it
#   . scripts/setup.sh         # source it: also keeps the PATH/env it sets up
#                              # (scripts/test.sh and scripts/run.sh do this)
#
# Installs / checks:
#   - rustup target wasm32-unknown-unknown (+ rustfmt, clippy, rust-src components)
#   - trunk 0.21.14                       (cargo install --locked)
#   - wasm-bindgen-cli == the wasm-bindgen version in Cargo.lock
#                                         (cargo install, without --locked)
#   - wasm-pack 0.15.1                    (cargo install --locked; runs one browser test
#                                          file with the installed chromedriver/wasm-bindgen)
#   - wasm-split-cli 0.2.4                (cargo install --locked wasm_split_cli_support
#                                          --features build-binary; Leptos's splitter, what
#                                          cargo-leptos runs: the lean widget's chunks)
#   - mdbook 0.5.4                        (cargo install --locked --no-default-features: the docs)
#   - wasm-opt from binaryen 132          (npm install -g binaryen@132;
#                                          never Debian's binaryen 108)
#   - chromium + chromium-driver          (apt) for the browser tests
#   - terser                              (npm ci from the repository's package-lock.json:
#                                          minifies the loader)
set -euo pipefail

TRUNK_VERSION="0.21.14"
WASM_SPLIT_VERSION="0.2.4"
WASM_PACK_VERSION="0.15.1"
BINARYEN_VERSION="132"
MDBOOK_VERSION="0.5.4"

_setup_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

_say() { printf '[setup] %s\n' "$*"; }
_die() {
    printf '[setup] ERROR: %s\n' "$*" >&2
    exit 1
}
# Prepend a directory to PATH (moving it to the front if already present).
_path_prepend() {
    local d="$1"
    [ -d "$d" ] || return 0
    PATH=":${PATH}:"
    PATH="${PATH//:$d:/:}"
    PATH="${PATH#:}"
    PATH="${d}:${PATH%:}"
    export PATH
}
# Run as root: directly if we are root, else through sudo.
_as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        _die "need root for: $* (not root and no sudo)"
    fi
}

_setup_start=$SECONDS

# --- Rust toolchain ---------------------------------------------------------
_cargo_bin="${CARGO_HOME:-$HOME/.cargo}/bin"
_path_prepend "$_cargo_bin"
command -v cargo >/dev/null 2>&1 || _die "cargo not found (install Rust via rustup first)"
command -v rustup >/dev/null 2>&1 || _die "rustup not found (needed for the wasm32 target)"

if rustup target list --installed | grep -qx 'wasm32-unknown-unknown'; then
    _say "skip: rust target wasm32-unknown-unknown already installed"
else
    _say "install: rust target wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
fi

_missing_components=()
cargo fmt --version >/dev/null 2>&1 || _missing_components+=(rustfmt)
cargo clippy --version >/dev/null 2>&1 || _missing_components+=(clippy)
# The standard library's source: the release bundles rebuild it for size (scripts/release-env.sh).
[ -d "$(rustc --print sysroot)/lib/rustlib/src/rust/library/std" ] || _missing_components+=(rust-src)
if [ "${#_missing_components[@]}" -eq 0 ]; then
    _say "skip: rustfmt, clippy and rust-src already installed"
else
    _say "install: rustup components ${_missing_components[*]}"
    rustup component add "${_missing_components[@]}"
fi
# The standard library's own dependencies (its Cargo.lock, unchanged): trunk builds offline, and
# the rebuilt standard library needs them in cargo's cache (else "no matching package named
# `moto-rt` found").
_std_manifest="$(rustc --print sysroot)/lib/rustlib/src/rust/library/Cargo.toml"
if RUSTC_BOOTSTRAP=1 cargo fetch --offline --locked --manifest-path "$_std_manifest" >/dev/null 2>&1; then
    _say "skip: the standard library's dependencies already fetched"
else
    _say "install: the standard library's dependencies (cargo fetch)"
    RUSTC_BOOTSTRAP=1 cargo fetch --locked --manifest-path "$_std_manifest"
fi

# --- trunk ------------------------------------------------------------------
if trunk --version 2>/dev/null | grep -qx "trunk ${TRUNK_VERSION}"; then
    _say "skip: trunk ${TRUNK_VERSION} already installed ($(command -v trunk))"
else
    _say "install: trunk ${TRUNK_VERSION} (cargo install --locked; takes several minutes)"
    cargo install --locked trunk --version "${TRUNK_VERSION}"
fi
trunk --version 2>/dev/null | grep -qx "trunk ${TRUNK_VERSION}" ||
    _die "trunk on PATH is '$(trunk --version 2>&1 || true)' ($(command -v trunk || echo none)), want ${TRUNK_VERSION}"

# --- wasm-split-cli (scripts/build-widget.sh cuts the lean widget into the wasm modules of its
# split points, src/ui/lazy.rs; it prints no version, so the installed crate is asked) ------
_ws_ok() {
    command -v wasm-split-cli >/dev/null 2>&1 &&
        cargo install --list | grep -qx "wasm_split_cli_support v${WASM_SPLIT_VERSION}:"
}
if _ws_ok; then
    _say "skip: wasm-split-cli ${WASM_SPLIT_VERSION} already installed ($(command -v wasm-split-cli))"
else
    _say "install: wasm-split-cli ${WASM_SPLIT_VERSION} (cargo install --locked; takes a few minutes)"
    cargo install --locked wasm_split_cli_support --version "${WASM_SPLIT_VERSION}" \
        --features build-binary --force
fi
_ws_ok || _die "wasm-split-cli ${WASM_SPLIT_VERSION} is not installed"

# --- wasm-bindgen-cli (must equal the wasm-bindgen crate in Cargo.lock) ------
if [ ! -f "${_setup_root}/Cargo.lock" ]; then
    _say "Cargo.lock missing: generating it"
    (cd "${_setup_root}" && cargo generate-lockfile)
fi
WASM_BINDGEN_VERSION="$(awk '
    /^\[\[package\]\]/ { in_wb = 0 }
    /^name = "wasm-bindgen"$/ { in_wb = 1; next }
    in_wb && /^version = / { gsub(/"/, "", $3); print $3; exit }
' "${_setup_root}/Cargo.lock")"
[ -n "${WASM_BINDGEN_VERSION}" ] || _die "could not find the wasm-bindgen version in Cargo.lock"
export WASM_BINDGEN_VERSION

_wb_ok() {
    wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen ${WASM_BINDGEN_VERSION}" &&
        wasm-bindgen-test-runner --version 2>/dev/null | grep -q "${WASM_BINDGEN_VERSION}"
}
if _wb_ok; then
    _say "skip: wasm-bindgen-cli ${WASM_BINDGEN_VERSION} already installed ($(command -v wasm-bindgen))"
else
    _say "install: wasm-bindgen-cli ${WASM_BINDGEN_VERSION} (cargo install; takes a few minutes)"
    # Deliberately without --locked: the crate's own lockfile does not build on
    # current toolchains for some releases; the version itself is pinned exactly.
    cargo install wasm-bindgen-cli --version "${WASM_BINDGEN_VERSION}" --force
fi
_wb_ok || _die "wasm-bindgen on PATH is '$(wasm-bindgen --version 2>&1 || true)', want ${WASM_BINDGEN_VERSION}"

# --- wasm-pack (it must find the wasm-bindgen above and the chromedriver below: it is run
# with --mode no-install and --chromedriver, so it downloads nothing) ---------------------
if wasm-pack --version 2>/dev/null | grep -qx "wasm-pack ${WASM_PACK_VERSION}"; then
    _say "skip: wasm-pack ${WASM_PACK_VERSION} already installed ($(command -v wasm-pack))"
else
    _say "install: wasm-pack ${WASM_PACK_VERSION} (cargo install --locked; takes several minutes)"
    cargo install --locked wasm-pack --version "${WASM_PACK_VERSION}"
fi
wasm-pack --version 2>/dev/null | grep -qx "wasm-pack ${WASM_PACK_VERSION}" ||
    _die "wasm-pack on PATH is '$(wasm-pack --version 2>&1 || true)', want ${WASM_PACK_VERSION}"

# --- mdbook (the docs: `mdbook build docs`; without its server, watcher and search, which the
# check does not need and which take minutes to compile) ----------------------------------
if mdbook --version 2>/dev/null | grep -qx "mdbook v${MDBOOK_VERSION}"; then
    _say "skip: mdbook ${MDBOOK_VERSION} already installed ($(command -v mdbook))"
else
    _say "install: mdbook ${MDBOOK_VERSION} (cargo install --locked --no-default-features)"
    cargo install --locked mdbook --version "${MDBOOK_VERSION}" --no-default-features
fi
mdbook --version 2>/dev/null | grep -qx "mdbook v${MDBOOK_VERSION}" ||
    _die "mdbook on PATH is '$(mdbook --version 2>&1 || true)', want ${MDBOOK_VERSION}"

# --- wasm-opt (binaryen from npm, never Debian's v108) ----------------------
_wasm_opt_ok() { "$1" --version 2>/dev/null | grep -q "version ${BINARYEN_VERSION}\b"; }

if dpkg-query -W -f='${Status}' binaryen 2>/dev/null | grep -q 'install ok installed'; then
    _say "warning: Debian's binaryen package is installed; its wasm-opt (v108) breaks the page" \
        "(WebAssembly.Table.set TypeError). Making sure the npm one comes first on PATH."
fi

_wasm_opt_dir=""
# 1. Already on PATH with the right version?
if _cur="$(command -v wasm-opt 2>/dev/null)" && _wasm_opt_ok "$_cur"; then
    _wasm_opt_dir="$(dirname "$_cur")"
    _say "skip: wasm-opt ${BINARYEN_VERSION} already installed (${_cur})"
else
    command -v npm >/dev/null 2>&1 || _die "npm not found (Node 20 is needed for binaryen@${BINARYEN_VERSION})"
    _npm_prefix="$(npm prefix -g)"
    # 2. Installed by npm, but shadowed on PATH?
    for _cand in "${_npm_prefix}/bin/wasm-opt" /usr/local/bin/wasm-opt; do
        if [ -x "$_cand" ] && _wasm_opt_ok "$_cand"; then
            _wasm_opt_dir="$(dirname "$_cand")"
            _say "skip: wasm-opt ${BINARYEN_VERSION} already installed (${_cand}; putting it first on PATH)"
            break
        fi
    done
    # 3. Install it.
    if [ -z "$_wasm_opt_dir" ]; then
        # If the global bin dir holds a wasm-opt owned by a Debian package,
        # npm can't link over it: use /usr/local (ahead of /usr/bin on PATH).
        if [ -e "${_npm_prefix}/bin/wasm-opt" ] && dpkg-query -S "${_npm_prefix}/bin/wasm-opt" >/dev/null 2>&1; then
            _npm_prefix=/usr/local
        fi
        _say "install: npm install -g binaryen@${BINARYEN_VERSION} (prefix ${_npm_prefix})"
        if [ -w "${_npm_prefix}" ] && { [ ! -e "${_npm_prefix}/lib" ] || [ -w "${_npm_prefix}/lib" ]; }; then
            npm install -g --prefix "${_npm_prefix}" "binaryen@${BINARYEN_VERSION}"
        else
            _as_root npm install -g --prefix "${_npm_prefix}" "binaryen@${BINARYEN_VERSION}"
        fi
        _wasm_opt_dir="${_npm_prefix}/bin"
    fi
fi
_path_prepend "$_wasm_opt_dir"
hash -r
_wasm_opt_ok "$(command -v wasm-opt)" ||
    _die "wasm-opt on PATH is '$(wasm-opt --version 2>&1 || true)', want ${BINARYEN_VERSION}"
# Keep cargo's bin dir in front (trunk / wasm-bindgen), wasm-opt dir right after.
_path_prepend "$_cargo_bin"

# --- Chromium + chromedriver (browser tests) -------------------------------
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
    _say "skip: chromium and chromedriver already installed ($(command -v chromium), $(command -v chromedriver))"
else
    _say "install: apt-get install chromium chromium-driver"
    _as_root env DEBIAN_FRONTEND=noninteractive apt-get update
    _as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver
fi
CHROMEDRIVER="${CHROMEDRIVER:-$(command -v chromedriver)}"
export CHROMEDRIVER

# --- the repository's build tools from npm (package.json: terser minifies the loader) ------
if (cd "$_setup_root" && [ -f node_modules/terser/package.json ] &&
    node -e 'const l = require("./package-lock.json"), p = require("./node_modules/terser/package.json"); process.exit(l.packages["node_modules/terser"].version === p.version ? 0 : 1)' 2>/dev/null); then
    _say "skip: the build's npm tools already installed (terser)"
else
    _say "install: the build's npm tools (npm ci: terser)"
    (cd "$_setup_root" && npm ci --no-audit --no-fund --silent)
fi

# --- openssl (the e2e suite's throwaway certificate for the MCP Apps sandbox proxy) ----
if command -v openssl >/dev/null 2>&1; then
    _say "skip: openssl already installed ($(command -v openssl))"
else
    _say "install: apt-get install openssl"
    _as_root env DEBIAN_FRONTEND=noninteractive apt-get update
    _as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y openssl
fi

# Trunk: never phone home for a version check.
export TRUNK_SKIP_VERSION_CHECK=true

_say "ready in $((SECONDS - _setup_start))s:" \
    "$(trunk --version)," \
    "$(wasm-bindgen --version)," \
    "$(wasm-pack --version)," \
    "$(mdbook --version)," \
    "$(wasm-opt --version | head -n1)," \
    "$(chromium --version 2>/dev/null | head -n1)," \
    "$(chromedriver --version 2>/dev/null | awk '{print $1, $2}')"
