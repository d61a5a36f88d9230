#!/usr/bin/env bash
# The lean widget bundle: what a host page fetches when its chat opens, for a widget pointed at
# its own agent — no demo agent or cards, no event inspector. Writes dist/agui-widget.js and
# dist/agui-widget_bg.wasm next to the app's bundle (run after `trunk build --release`, which
# empties dist/); the loader (agui-chat.js) picks it for pages whose widgets all have an
# endpoint.
#
# The parts a chat may never show are modules of their own, fetched on first use (src/ui/lazy.rs:
# tool cards and reasoning, the interrupt cards, the state tree, the settings form, the queue, …):
# dist/agui-widget.NAME.wasm, and the code they share in dist/agui-widget.chunks.bin. So are the
# languages: the main module speaks English, every other catalog is a module of its own
# (dist/agui-widget.lang_fr.wasm, …, src/ui/catalog.rs), and so is the checking of a page's own
# texts (dist/agui-widget.strings.wasm).
#
# Every option a page may set works in it: AG-UI and the AI SDK's UI message stream (feature
# `ai-sdk`), the protobuf binding (`protobuf`, for `transport="protobuf"`), A2UI surfaces
# (`a2ui`) and MCP Apps (`mcp-apps`). The optional ones are modules of their own, fetched when
# first needed (the protobuf decoder by a widget with `transport="protobuf"` when a run starts,
# A2UI and MCP Apps with the first such activity), so a page that never uses them never loads
# them. `no-ai-sdk`, `no-protobuf`, `no-a2ui` and `no-mcp-apps` leave one out (a widget that
# asks for that wire then gets a warning and AG-UI's SSE; such an activity, a generic card).
#
#   scripts/build-widget.sh [no-ai-sdk | no-protobuf | no-a2ui | no-mcp-apps ...]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

features=(ai-sdk protobuf a2ui mcp-apps)
for arg in "$@"; do
    case "$arg" in
        ai-sdk | protobuf | a2ui | mcp-apps) ;;
        no-ai-sdk | no-protobuf | no-a2ui | no-mcp-apps)
            kept=()
            for f in "${features[@]}"; do
                [ "$f" = "${arg#no-}" ] || kept+=("$f")
            done
            features=("${kept[@]}")
            ;;
        *)
            echo "[build-widget] unknown argument: $arg (no-ai-sdk, no-protobuf, no-a2ui," \
                "no-mcp-apps; every language is in every bundle)" >&2
            exit 2
            ;;
    esac
done
read -r -a features <<<"${features[*]}"
feature_args=(--no-default-features)
if [ "${#features[@]}" -gt 0 ]; then
    feature_args+=(--features "$(IFS=,; echo "${features[*]}")")
fi

# Its own target directory: other features than the app's, so neither build invalidates the
# other's cache. The release profile and the rustflags (.cargo/config.toml) are the app's.
target=target/lean
# shellcheck source=scripts/release-env.sh
source scripts/release-env.sh
# The split points (src/ui/lazy.rs) become imports that wasm-split-cli resolves; it needs the
# linker's relocations to see which code each split point alone reaches.
export RUSTFLAGS="$RUSTFLAGS --cfg agui_split -Clink-args=--emit-relocs"
# (Its build script's OUT_DIR holds the stylesheet's halves, checked below.)
out_dir="$(cargo build --release --target wasm32-unknown-unknown --bin agui-leptos \
    "${feature_args[@]}" --target-dir "$target" --message-format=json-render-diagnostics |
    python3 -c 'import json, sys
for m in map(json.loads, sys.stdin):
    if m.get("reason") == "build-script-executed" and "#agui-leptos@" in m["package_id"]:
        print(m["out_dir"])')"
mkdir -p dist
# The main module (what a page fetches when its chat opens), one module per split point and
# the chunks they share, and the JS that loads them (__wasm_split.js).
split="$target/split"
rm -rf "$split"
wasm-split-cli "$target/wasm32-unknown-unknown/release/agui-leptos.wasm" "$split" \
    --target web --out-name agui-widget
# The tool that says why a function is in the main module (scripts/why-main.py) follows the
# splitter's graph: everything it says a root reaches must be in the main module just written.
python3 scripts/why-main.py --wasm "$target/wasm32-unknown-unknown/release/agui-leptos.wasm" \
    --check-split "$split"
# wasm-bindgen names the JS snippets' folder after the crate (snippets/agui-leptos-HASH/), the
# same folder as the app bundle's, whose inline0.js… differ with the features: written into
# dist/ directly, they would replace the app's. So out of dist/, the folder renamed. The
# exports the chunks import (memory, table, shared functions) stay, under their link names.
out="$target/bindgen"
rm -rf "$out"
wasm-bindgen --target web --no-typescript --keep-lld-exports --no-demangle --out-dir "$out" \
    --out-name agui-widget "$split/agui-widget.wasm"
if [ -d "$out/snippets" ]; then
    for dir in "$out"/snippets/agui-leptos-*; do
        [ -d "$dir" ] || continue
        name="$(basename "$dir")"
        lean="agui-widget-${name#agui-leptos-}"
        # Only the `import` statements: the import object's keys are the module names the
        # wasm itself asks for, and stay.
        sed -i "/^import /s#snippets/${name}/#snippets/${lean}/#g" "$out/agui-widget.js"
        mkdir -p dist/snippets
        rm -rf "dist/snippets/${lean}"
        mv "$dir" "dist/snippets/${lean}"
    done
fi
# The chunks' loader folded into the glue (one per instance), the chunks renamed
# agui-widget.NAME.wasm.
python3 scripts/link-split.py "$out/agui-widget.js" "$split/__wasm_split.js" "$split" "$out"
# Fresh instances without a new import of the glue (the loader's reload after a trap). The glue
# and its snippets minified like the loader (terser): they are part of what opening the chat
# fetches (3.9 KB gzip less).
python3 scripts/glue-instance.py "$out/agui-widget.js" --minify
for f in dist/snippets/agui-widget-*/*.js; do
    node node_modules/terser/bin/terser "$f" --module --compress --mangle --output "$f"
done
mv "$out/agui-widget.js" dist/agui-widget.js
rm -f dist/agui-widget.*.wasm
# `--low-memory-unused`: Rust's memory has no data in its first KB (the stack is first and
# grows down towards it), so wasm-opt may fold constant offsets into loads and stores (~1 KB
# gzip less in the main module).
opt=(-Oz --low-memory-unused --strip-producers --strip-target-features --strip-debug)
wasm-opt "${opt[@]}" "$out/agui-widget_bg.wasm" -o dist/agui-widget_bg.wasm
# The rules that come with the modules (src/ui/styles.rs) style nothing the main module
# renders alone.
python3 scripts/check-split-css.py dist/agui-widget_bg.wasm "$out_dir"
for chunk in "$out"/agui-widget.*.wasm; do
    wasm-opt "${opt[@]}" "$chunk" -o "dist/$(basename "$chunk")"
done
# The shared chunks in one file, fetched once (scripts/link-split.py: fifty requests would be
# as many round trips on an HTTP/1.1 host).
rm -f dist/agui-widget.chunks.bin
python3 scripts/link-split.py --pack dist/agui-widget.chunks.bin "$out/chunks.txt" dist
rm -f dist/agui-widget.chunk_*.wasm
echo "[build-widget] dist/agui-widget.js, dist/agui-widget_bg.wasm, $(cd dist && echo agui-widget.*.wasm agui-widget.chunks.bin) (features: ${features[*]:-none})"
