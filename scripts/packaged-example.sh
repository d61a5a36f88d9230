#!/usr/bin/env bash
# The example Leptos app (examples/leptos-app) built against the crate as `cargo package`
# makes it — the .crate unpacked, default features: what a user of the crate depends on — with
# trunk (debug, in the shared target directory, so the dependencies compiled for the tests are
# reused). Writes target/leptos-app-dist/ (scripts/e2e.sh serves it at /leptos-app/).
#
#   scripts/packaged-example.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$(pwd)"

version="$(awk -F'"' '/^version = / { print $2; exit }' Cargo.toml)"
# --allow-dirty: a working tree under change packs as it is (CI's clone is clean anyway).
cargo package --allow-dirty --no-verify --quiet 2>/dev/null ||
    cargo package --allow-dirty --no-verify
work=target/packaged-example
rm -rf "$work"
mkdir -p "$work/app"
tar -xzf "target/package/agui-leptos-${version}.crate" -C "$work"
[ -f "$work/agui-leptos-${version}/src/lib.rs" ] || { echo "[packaged-example] the crate has no src/lib.rs" >&2; exit 1; }
mkdir -p "$work/app/src"
cp examples/leptos-app/index.html examples/leptos-app/Trunk.toml "$work/app/"
cp examples/weather_desk.rs "$work/app/src/main.rs"
# The example's manifest, its dependency on the crate pointed at the unpacked one, as a
# workspace of its own (with the repository's lockfile: the same versions as the tests').
sed -e "s#^agui-leptos = { path = \"../..\" }#agui-leptos = { path = \"../agui-leptos-${version}\" }#" \
    -e 's#^path = "../weather_desk.rs"#path = "src/main.rs"#' \
    examples/leptos-app/Cargo.toml >"$work/app/Cargo.toml"
grep -q "path = \"../agui-leptos-${version}\"" "$work/app/Cargo.toml" ||
    { echo "[packaged-example] examples/leptos-app/Cargo.toml: no agui-leptos path dependency" >&2; exit 1; }
printf '\n[workspace]\n' >>"$work/app/Cargo.toml"
cp Cargo.lock "$work/app/Cargo.lock"
sed -i 's#^dist = "../../target/leptos-app-dist"#dist = "../../leptos-app-dist"#' "$work/app/Trunk.toml"
grep -q '^dist = "../../leptos-app-dist"' "$work/app/Trunk.toml" ||
    { echo "[packaged-example] examples/leptos-app/Trunk.toml: dist is not ../../target/leptos-app-dist" >&2; exit 1; }
echo "[packaged-example] trunk build examples/leptos-app against agui-leptos-${version}.crate"
(cd "$work/app" && CARGO_TARGET_DIR="$root/target" trunk build)
