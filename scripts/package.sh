#!/usr/bin/env bash
# The npm package `agui-leptos`, from the release build in dist/ (scripts/build-release.sh; it
# builds nothing itself): its CDN folder (dist/cdn/: the loader and everything it loads), its
# entries (dist/index.js — the lean widget —, dist/full.js, dist/react.js, the types), the
# element manifest, the licences and the changelog, packed with `npm pack`. The version is
# Cargo.toml's. Prints the sizes against their budgets; the last line is the tarball's path.
#
#   scripts/package.sh              # → target/npm/agui-leptos-VERSION.tgz
#   scripts/package.sh --write-sri  # also writes the loader's integrity hash into the docs
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The packed tarball, and the CDN folder's files (gzip -9, each), in all.
TARBALL_BUDGET=${TARBALL_BUDGET:-2600000}
CDN_BUDGET_GZIP=${CDN_BUDGET_GZIP:-2240000}

version="$(awk -F'"' '/^version = / { print $2; exit }' Cargo.toml)"
for f in dist/agui-chat.js dist/agui-widget.js dist/agui-widget_bg.wasm dist/agui-widget.chunks.bin \
    dist/agui-leptos.js dist/agui-leptos_bg.wasm; do
    [ -f "$f" ] || { echo "[package] $f is missing: run scripts/build-release.sh first" >&2; exit 1; }
done
# One version everywhere (tests/project/version.rs checks the sources; this, what is packed).
grep -q "\"version\": \"${version}\"" npm/package.json ||
    { echo "[package] npm/package.json's version is not Cargo.toml's ${version}" >&2; exit 1; }
grep -q "^export const version = '${version}';" src/loader/agui-chat.js ||
    { echo "[package] the loader's version is not Cargo.toml's ${version}" >&2; exit 1; }
# Each glue makes fresh instances (scripts/glue-instance.py): the crash recovery needs it.
grep -q '__aguiFresh' dist/agui-widget.js && grep -q '__aguiFresh' dist/agui-leptos.js ||
    { echo "[package] a glue without __aguiFresh (scripts/glue-instance.py)" >&2; exit 1; }

out=target/npm
pkg="$out/package"
rm -rf "$pkg"
mkdir -p "$pkg/dist/cdn"
# The CDN folder: what dist/agui-chat.js loads, next to it (not the app's page or examples).
cp dist/agui-chat.js dist/agui-chat.words.js dist/agui-widget.js dist/agui-widget_bg.wasm dist/agui-widget.*.wasm \
    dist/agui-widget.chunks.bin dist/agui-leptos.js dist/agui-leptos_bg.wasm "$pkg/dist/cdn/"
cp -r dist/snippets "$pkg/dist/cdn/"
# The npm entries: the loader with their own bundles, under ./cdn/.
python3 scripts/npm-entries.py src/loader/agui-chat.js "$pkg/dist"
cp npm/index.d.ts npm/full.d.ts npm/react.js npm/react.d.ts npm/jsx.js npm/jsx.d.ts "$pkg/dist/"
cp npm/package.json npm/custom-elements.json README.md CHANGELOG.md LICENSE-MIT LICENSE-APACHE "$pkg/"

# The loader's Subresource Integrity hash: the docs' script tag pins the version and carries it.
sri="sha384-$(openssl dgst -sha384 -binary "$pkg/dist/cdn/agui-chat.js" | openssl base64 -A)"
tag_files=(README.md docs/getting-started.md examples/hosts/plain/index.html)
if [ "${1:-}" = --write-sri ]; then
    for f in "${tag_files[@]}"; do
        [ -f "$f" ] && sed -i -E "s#(agui-leptos@)[0-9][^/]*(/dist/cdn/agui-chat\.js\" integrity=\")sha384-[A-Za-z0-9+/=_]+#\1${version}\2${sri}#g" "$f"
    done
fi
for f in "${tag_files[@]}"; do
    [ -f "$f" ] || continue
    if grep -q 'dist/cdn/agui-chat.js" integrity=' "$f" &&
        ! grep -q "agui-leptos@${version}/dist/cdn/agui-chat.js\" integrity=\"${sri}\"" "$f"; then
        echo "[package] $f: the CDN script tag must pin agui-leptos@${version} with integrity=\"${sri}\"" \
            "(scripts/package.sh --write-sri writes it)" >&2
        exit 1
    fi
done

(cd "$out" && rm -f "agui-leptos-${version}.tgz" && npm pack ./package --silent >/dev/null)
tarball="$out/agui-leptos-${version}.tgz"
[ -f "$tarball" ] || { echo "[package] npm pack wrote no $tarball" >&2; exit 1; }

# Sizes: the tarball, and the CDN folder (gzip -9 of each file, as the size budgets count).
cdn=0
while IFS= read -r f; do
    cdn=$((cdn + $(gzip -9 -c "$f" | wc -c)))
done < <(find "$pkg/dist/cdn" -type f)
files="$(tar -tzf "$tarball" | wc -l)"
bytes="$(stat -c %s "$tarball")"
printf '[package] %s: %s files, %s bytes (budget %s)\n' "$tarball" "$files" "$bytes" "$TARBALL_BUDGET"
printf '[package] dist/cdn/: %s bytes gzip-9 in all (budget %s); the loader %s bytes gzip-9\n' \
    "$cdn" "$CDN_BUDGET_GZIP" "$(gzip -9 -c "$pkg/dist/cdn/agui-chat.js" | wc -c)"
printf '[package] the loader'"'"'s integrity: %s\n' "$sri"
[ "$bytes" -le "$TARBALL_BUDGET" ] || { echo "[package] the tarball is over its budget" >&2; exit 1; }
[ "$cdn" -le "$CDN_BUDGET_GZIP" ] || { echo "[package] dist/cdn/ is over its budget" >&2; exit 1; }
echo "$tarball"
