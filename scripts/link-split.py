#!/usr/bin/env python3
"""Folds wasm-split-cli's link module (__wasm_split.js) into the lean widget's glue.

wasm-split-cli writes __wasm_split.js, which loads the chunks of the split points
(src/ui/lazy.rs) and gets the main instance's memory and table with `initSync()` from
`./agui-widget.js`. As a file of its own it would be one module per page: the loader's fresh
instance after a crash (`agui-widget.js?i=N`, src/loader/agui-chat.js) would share it with the
dead instance, and its chunks would bind to that one. Folded into the glue, each instance has
its own. The chunk files are renamed `agui-widget.NAME.wasm` (wasm-split-cli names them
`split_NAME.wasm`, `chunk_N.wasm`), so they are recognisably the widget's in dist/. And a
chunk served under another type than application/wasm is instantiated from its bytes, as
wasm-bindgen's init does for the main module.

The shared chunks (`chunk_N.wasm`: code two or more split points need) are one file, the
pack `agui-widget.chunks.bin`, fetched once with the first module that needs any: `run` alone
needs some fifty of them, and fifty requests are as many round trips on a connection-limited
HTTP/1.1 host (six at a time) — about a second and a half on a "Fast 4G" network. The pack is
`u32 count`, `count × u32 length` (little-endian), then the chunks in that order; a chunk's
loader reads its bytes from it (`__agui_chunk(index)`). The split points' own modules stay
files of their own (`agui-widget.run.wasm`…). The chunks' loaders are made from their indexes
when the split points' loaders are (`__agui_deps([0, 3, …])`), not written out one by one as
wasm-split-cli does: with a hundred and more chunks those definitions were 1.4 KB gzip of the
main module's glue.

    scripts/link-split.py GLUE LINK_JS CHUNK_DIR OUT_DIR
    scripts/link-split.py --pack PACK CHUNK_LIST DIR   # after wasm-opt: DIR's chunks → PACK

Renames nothing it does not find: every pattern it rewrites must be there, or it fails (a
wasm-split-cli or wasm-bindgen whose output changed shape must not give a broken bundle).
"""

import os
import re
import shutil
import sys


def fail(msg):
    print(f"link-split: {msg}", file=sys.stderr)
    sys.exit(1)


def pack(dest, chunk_list, folder):
    """Writes the pack of the chunks CHUNK_LIST names (in its order), read from FOLDER."""
    import struct
    names = open(chunk_list, encoding="utf-8").read().split()
    blobs = []
    for n in names:
        path = os.path.join(folder, n)
        if not os.path.isfile(path):
            fail(f"{path} is missing")
        blobs.append(open(path, "rb").read())
    head = struct.pack(f"<{len(blobs) + 1}I", len(blobs), *map(len, blobs))
    open(dest, "wb").write(head + b"".join(blobs))
    print(f"link-split: {len(blobs)} chunks packed into {dest}")


CHUNK_LOADER = re.compile(
    r"(?:/\*[^*\n]*\*/\n)?"
    r"const __chunk_([0-9]+) = makeLoad\(\(\) => \{\n"
    r"    const src = __agui_chunk\(([0-9]+)\);\n"
    r"    src\.catch\(\(\) => \{\}\);\n"
    r"    return async \(imports\) => \(__agui_instantiate\(src, imports\)\);\n"
    r"\}\n, \[\]\);\n"
)
CHUNK_DEPS = re.compile(r", \[((?:__chunk_[0-9]+(?:, )?)*)\]\)")


def compact_chunk_loaders(link, chunks, link_path):
    """Replaces the shared chunks' loaders, one `const __chunk_N = makeLoad(…)` each, with one
    function that makes them on first use from their indexes in the pack."""
    index = {f"__chunk_{c[len('chunk_'):]}": i for i, c in enumerate(chunks)}
    found = {}

    def drop(m):
        found[f"__chunk_{m.group(1)}"] = int(m.group(2))
        return ""

    link = CHUNK_LOADER.sub(drop, link)
    if found != index:
        fail(f"{link_path}: the shared chunks' loaders are not all of the expected shape")

    def deps(m):
        names = [n for n in m.group(1).split(", ") if n]
        return ", __agui_deps([" + ", ".join(str(index[n]) for n in names) + "]))"

    link = CHUNK_DEPS.sub(deps, link)
    if "__chunk_" in link:
        fail(f"{link_path}: a shared chunk is named where its index was expected")
    helper = (
        "// The loaders of the shared chunks `indexes` (in the pack), made once each.\n"
        "const __agui_chunk_loaders = [];\n"
        "function __agui_deps(indexes) {\n"
        "    return indexes.map((i) => {\n"
        "        if (!__agui_chunk_loaders[i]) {\n"
        "            __agui_chunk_loaders[i] = makeLoad(() => {\n"
        "                const src = __agui_chunk(i);\n"
        "                src.catch(() => {});\n"
        "                return async (imports) => (__agui_instantiate(src, imports));\n"
        "            }, []);\n"
        "        }\n"
        "        return __agui_chunk_loaders[i];\n"
        "    });\n"
        "}\n"
    )
    return helper + link


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--pack":
        return pack(*sys.argv[2:])
    if len(sys.argv) != 5:
        fail("usage: link-split.py GLUE LINK_JS CHUNK_DIR OUT_DIR")
    glue_path, link_path, chunk_dir, out_dir = sys.argv[1:]
    glue = open(glue_path, encoding="utf-8").read()
    link = open(link_path, encoding="utf-8").read()

    main_import = 'import { initSync } from "./agui-widget.js";\n'
    if main_import not in link:
        fail(f"{link_path}: no `{main_import.strip()}`")
    link = link.replace(main_import, "", 1)

    # The chunks, renamed (and copied to OUT_DIR).
    renamed = {}

    def rename(m):
        old = m.group(1)
        name = old[len("split_"):] if old.startswith("split_") else old
        renamed[old] = f"agui-widget.{name}"
        return f'new URL("./agui-widget.{name}.wasm", import.meta.url)'

    # The shared chunks come from the pack, in the order of their names.
    chunks = sorted(set(re.findall(r'fetch\(new URL\("\./(chunk_[0-9]+)\.wasm", import\.meta\.url\)\)', link)),
                    key=lambda c: int(c[len("chunk_"):]))
    for i, c in enumerate(chunks):
        renamed[c] = f"agui-widget.{c}"
        link = link.replace(f'fetch(new URL("./{c}.wasm", import.meta.url))', f"__agui_chunk({i})", 1)
    open(os.path.join(out_dir, "chunks.txt"), "w", encoding="utf-8").write(
        "".join(f"agui-widget.{c}.wasm\n" for c in chunks))
    link = re.sub(r'new URL\("\./([A-Za-z0-9_]+)\.wasm", import\.meta\.url\)', rename, link)
    if not renamed:
        fail(f"{link_path}: no chunk URLs")
    for old, new in renamed.items():
        src = os.path.join(chunk_dir, old + ".wasm")
        if not os.path.isfile(src):
            fail(f"{src} is missing")
        shutil.copyfile(src, os.path.join(out_dir, new + ".wasm"))

    # A host that serves .wasm under another type than application/wasm: instantiateStreaming
    # refuses the response; wasm-bindgen's own init falls back to the bytes, so do the chunks.
    streaming = "WebAssembly.instantiateStreaming(src, imports)"
    if streaming not in link:
        fail(f"{link_path}: no `{streaming}`")
    link = link.replace(streaming, "__agui_instantiate(src, imports)")
    link = (
        "let __agui_pack;\n"
        "// The bytes of shared chunk `i`, from the pack (fetched once; again after a failure).\n"
        "function __agui_chunk(i) {\n"
        "    if (__agui_pack === undefined) {\n"
        "        const pack = fetch(new URL(\"./agui-widget.chunks.bin\", import.meta.url)).then((res) => {\n"
        "            if (!res.ok) throw new Error(`${res.url}: HTTP ${res.status}`);\n"
        "            return res.arrayBuffer();\n"
        "        });\n"
        "        pack.catch(() => { if (__agui_pack === pack) __agui_pack = undefined; });\n"
        "        __agui_pack = pack;\n"
        "    }\n"
        "    return __agui_pack.then((buf) => {\n"
        "        const v = new DataView(buf);\n"
        "        if (i >= v.getUint32(0, true)) throw new Error(`agui-widget.chunks.bin: no chunk ${i}`);\n"
        "        let at = 4 + 4 * v.getUint32(0, true);\n"
        "        for (let k = 0; k < i; k++) at += v.getUint32(4 + 4 * k, true);\n"
        "        return buf.slice(at, at + v.getUint32(4 + 4 * i, true));\n"
        "    });\n"
        "}\n"
        "async function __agui_instantiate(src, imports) {\n"
        "    const res = await src;\n"
        "    if (res instanceof ArrayBuffer) return WebAssembly.instantiate(res, imports);\n"
        "    if (!res.ok) throw new Error(`${res.url}: HTTP ${res.status}`);\n"
        "    if ((res.headers.get('Content-Type') || '').startsWith('application/wasm')) {\n"
        "        return WebAssembly.instantiateStreaming(res, imports);\n"
        "    }\n"
        "    return WebAssembly.instantiate(await res.arrayBuffer(), imports);\n"
        "}\n" + link
    )

    link = compact_chunk_loaders(link, chunks, link_path)

    # Its exports become the members of the object the glue imported it as.
    exports = re.findall(r"^export const ([A-Za-z0-9_]+) = ", link, flags=re.M)
    if not exports:
        fail(f"{link_path}: no exported loaders")
    link = re.sub(r"^export const ", "const ", link, flags=re.M)

    # wasm-bindgen imports it once per function the main module imports from it.
    star = re.compile(r"^import \* as ([A-Za-z0-9_]+) from [\"']\./__wasm_split\.js[\"'];?\n", re.M)
    names = star.findall(glue)
    if not names:
        fail(f"{glue_path}: no `import * as … from './__wasm_split.js'`")
    glue = star.sub("", glue)
    folded = (
        "// The split points' loaders (scripts/link-split.py: wasm-split-cli's __wasm_split.js).\n"
        + link.rstrip()
        + f"\nconst __wasm_split_link = {{ {', '.join(exports)} }};\n"
        + "".join(f"const {n} = __wasm_split_link;\n" for n in names)
    )
    # After the glue's own top-level bindings (initSync among them): at the end of the module.
    glue = glue.rstrip() + "\n" + folded
    open(os.path.join(out_dir, os.path.basename(glue_path)), "w", encoding="utf-8").write(glue)
    print(f"link-split: {len(exports)} split points, chunks {', '.join(sorted(renamed.values()))}")


if __name__ == "__main__":
    main()
