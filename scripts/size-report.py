#!/usr/bin/env python3
"""Where the lean widget's bytes go: what a page fetches at each step, and in each module the
largest crates and our own modules. Prints Markdown (docs/dev/size-report.md is its output).

It reads what `scripts/build-widget.sh` leaves (no build of its own):
  - dist/: the files a page fetches, measured as gzip -9 (what the budgets of scripts/test.sh
    count);
  - target/lean/bindgen/: the same modules after wasm-bindgen and before wasm-opt, whose name
    section says which function is whose. Their sizes are before wasm-opt (which takes ~5%
    off the code), so the per-crate tables give each crate's share, not its exact bytes.

    scripts/size-report.py [--dist DIR] [--bindgen DIR] [--top N] [--all] [--budget BYTES]

`--all` breaks every module down (default: the main module and `run`). `--budget` fails (exit
1) when the first answer is over BYTES. A function is counted under the crate its name starts
with: `<agui_leptos::store::AgentStore>::on` under `agui_leptos::store`,
`core::ptr::drop_in_place::<T>` (the code that frees a T) under "drop glue", whatever T is.
"""
import argparse
import collections
import importlib.util
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

_spec = importlib.util.spec_from_file_location("why_main", ROOT / "scripts/why-main.py")
why_main = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(why_main)


def gz(path):
    """gzip -9 bytes, as the budgets of scripts/test.sh count them (`gzip -9 -c FILE`)."""
    return len(subprocess.run(["gzip", "-9", "-c", str(path)], capture_output=True,
                              check=True).stdout)


def lean_files(dist):
    """The main module's files: the wasm, its glue and the glue's snippets."""
    files = [dist / "agui-widget_bg.wasm", dist / "agui-widget.js"]
    files += sorted(dist.glob("snippets/agui-widget-*/*.js"))
    return files


def steps(dist):
    """[(step, files, gzip bytes)] in the order a page fetches them, then each module."""
    loader = [dist / "agui-chat.js"]
    lean = lean_files(dist)
    first = [dist / "agui-widget.run.wasm", dist / "agui-widget.chunks.bin"]
    for f in loader + lean + first:
        if not f.is_file():
            sys.exit(f"size-report: {f} is missing: build the lean widget first "
                     "(scripts/build-widget.sh)")
    rows = [
        ("before the chat is opened (the loader)", loader),
        ("opening the chat (the main module)", lean),
        ("the first answer (`run` and the shared chunks)", first),
    ]
    return [(name, files, sum(gz(f) for f in files)) for name, files in rows]


def modules(dist):
    """The modules fetched later: {name: gzip bytes}."""
    out = {}
    for f in sorted(dist.glob("agui-widget.*.wasm")):
        name = f.name[len("agui-widget."):-len(".wasm")]
        if name != "run":
            out[name] = gz(f)
    return out


PREFIX = re.compile(r"^(?:<|&mut |&|\*const |\*mut |\[|\(|_ as |dyn |impl )+")


def owner(name):
    """(crate, our module or None) of a demangled function name."""
    if name.startswith("core::ptr::drop_in_place"):
        return "drop glue", None
    split = re.match(r"__wasm_split_00\w+?00_export_[0-9a-f]+_(\w+)", name)
    if split:
        # A split point's body, under the name the splitter gave it.
        return "agui_leptos", f"split point {split.group(1)}"
    if "externref shim" in name or name.startswith("__wbg") or name.startswith("__wbindgen"):
        return "wasm-bindgen's shims", None
    name = PREFIX.sub("", name)
    parts = name.split("::")
    crate = re.split(r"[^A-Za-z0-9_]", parts[0])[0] or "other"
    ours = None
    if crate == "agui_leptos" and len(parts) > 1:
        # Two levels: agui_leptos::ui::composer, agui_leptos::store::AgentStore>…
        ours = "::".join(re.split(r"[^A-Za-z0-9_]", p)[0] for p in parts[:3] if p)
        ours = ours.rstrip(":")
    return crate, ours


def breakdown(wasm):
    """({crate: bytes}, {our module: bytes}, code bytes, data bytes) of one module."""
    m = why_main.Module(wasm.read_bytes())
    names = why_main.demangle(m.names)
    n_imports = len(m.func_imports)
    crates, ours = collections.Counter(), collections.Counter()
    code = 0
    for i, (start, end) in enumerate(m.bodies):
        size = end - start
        code += size
        crate, mine = owner(names.get(n_imports + i, ""))
        crates[crate] += size
        if mine:
            ours[mine] += size
    data = sum(end - start for start, end in m.segments)
    return crates, ours, code, data


def pct(part, whole):
    return f"{100 * part / whole:.1f}%" if whole else "-"


def table(title, counter, whole, top):
    print(f"\n{title}\n")
    print("| | bytes before wasm-opt | share |")
    print("|---|---:|---:|")
    for key, size in counter.most_common(top):
        print(f"| `{key}` | {size:,} | {pct(size, whole)} |")
    rest = sum(counter.values()) - sum(s for _, s in counter.most_common(top))
    if rest:
        print(f"| the rest | {rest:,} | {pct(rest, whole)} |")


def report_module(label, wasm, top):
    if not wasm.is_file():
        print(f"\n({wasm} is missing: no breakdown of {label})")
        return
    crates, ours, code, data = breakdown(wasm)
    whole = code + data
    print(f"\n### {label}\n")
    print(f"{code:,} bytes of code and {data:,} of data before wasm-opt "
          f"(`{wasm.relative_to(ROOT) if wasm.is_relative_to(ROOT) else wasm}`).")
    crates["data (strings, tables, the stylesheet)"] += data
    table("By crate:", crates, whole, top)
    table("Our own modules:", ours, whole, top)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dist", default=str(ROOT / "dist"))
    ap.add_argument("--bindgen", default=str(ROOT / "target/lean/bindgen"))
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--budget", type=int)
    args = ap.parse_args()
    dist, bindgen = pathlib.Path(args.dist), pathlib.Path(args.bindgen)

    rows = steps(dist)
    print("# Size report\n")
    print("The output of `scripts/size-report.sh` (the lean widget as `scripts/build-widget.sh` "
          "builds it;\nwhat the figures mean: [Size](size.md)).\n")
    print("## What a page fetches\n")
    print("gzip -9 bytes of the files in `dist/` (scripts/build-widget.sh).\n")
    print("| step | files | gzip | in all |")
    print("|---|---|---:|---:|")
    total = 0
    for name, files, size in rows:
        total += size
        listed = ", ".join(f"`{f.relative_to(dist)}`" for f in files)
        print(f"| {name} | {listed} | {size:,} | {total:,} |")
    first_answer = total
    later = modules(dist)
    print("\nThe modules fetched later, each the first time its part is needed "
          "(src/ui/lazy.rs):\n")
    print("| module | gzip |")
    print("|---|---:|")
    for name, size in sorted(later.items(), key=lambda kv: -kv[1]):
        print(f"| `{name}` | {size:,} |")
    print(f"| all of them | {sum(later.values()):,} |")

    print("\n## Where the bytes go")
    report_module("The main module (opening the chat)", bindgen / "agui-widget_bg.wasm",
                  args.top)
    report_module("`run` (the first answer)", bindgen / "agui-widget.run.wasm", args.top)
    if args.all:
        for name in later:
            report_module(f"`{name}`", bindgen / f"agui-widget.{name}.wasm", args.top)

    print(f"\nsize-report: to a first answer {first_answer:,} B gzip", end="")
    if args.budget is not None:
        print(f", budget {args.budget:,}")
        if first_answer > args.budget:
            print(f"size-report: the first answer is over its budget by "
                  f"{first_answer - args.budget:,} bytes", file=sys.stderr)
            return 1
    else:
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
