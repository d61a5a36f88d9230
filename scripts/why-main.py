#!/usr/bin/env python3
"""Why is a function in the lean widget's main module? Prints the path of references that
keeps it there: from a root of the main module (an export, the start function, a function
of the indirect table nothing else refers to) through the functions and data (a vtable, a
static) whose relocations refer to the next, to the function asked about. A function no root
reaches goes into a split point's module or a shared chunk; the tool says so.

It reads the linked wasm that `wasm-split-cli` splits (`scripts/build-widget.sh` builds it
with the linker's relocations, `--emit-relocs`) and follows the same graph the splitter does:
a function or a data symbol depends on every symbol its relocations name, and the split
points' own exports are not roots. docs/dev/lean-widget.md says how to use what it prints.

    scripts/why-main.py [--wasm PATH] [--all] [--check-split DIR] FUNCTION
    scripts/why-main.py --list-main [--wasm PATH]
    scripts/why-main.py --retained N [--wasm PATH] [FUNCTION]

FUNCTION is a substring of the function's demangled name (`agui_leptos::ui::markdown::`,
`<pulldown_cmark::parse::Parser>::new_ext`); with several matches, each one in the main
module is explained (the first five, or all with `--all`). `--list-main` prints every
function a root reaches. `--check-split DIR` compares that set with the main module
`wasm-split-cli` wrote in DIR (target/lean/split): every function it reaches must be there.
`--retained N` prints the N functions and data of the main module that keep the most bytes
there: each one's own size and what it retains — what only it leads to (the dominator tree of
the graph), so what would leave the main module if it went into a module (bytes before
wasm-bindgen and wasm-opt). With FUNCTION, what the first match retains, by part.
"""
import argparse
import bisect
import collections
import pathlib
import re
import shutil
import signal
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_WASM = ROOT / "target/lean/wasm32-unknown-unknown/release/agui-leptos.wasm"

# Relocation types (the tool conventions' Linking.md): which have an addend, and what their
# index names. TYPE_INDEX_LEB (6) indexes a type, SECTION_OFFSET_I32 (9) a section: no edge.
ADDEND = {3, 4, 5, 8, 9, 11, 14, 15, 16, 17, 21, 22, 23, 25}
NO_EDGE = {6, 9}
# The symbol kinds of the linking section.
FUNC, DATA, GLOBAL, SECTION, TAG, TABLE = range(6)
UNDEFINED, EXPLICIT_NAME = 0x10, 0x40
# Functions whose callers wasm-bindgen rewrites: the splitter keeps every caller in the main
# module.
WBG_ROOTING = {"__wbindgen_describe_cast", "__wbindgen_describe_generic_import"}


class Reader:
    def __init__(self, data, pos=0, end=None):
        self.data, self.pos = data, pos
        self.end = len(data) if end is None else end

    def byte(self):
        b = self.data[self.pos]
        self.pos += 1
        return b

    def uleb(self):
        result = shift = 0
        while True:
            b = self.byte()
            result |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return result

    def sleb(self):
        result = shift = 0
        while True:
            b = self.byte()
            result |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return result - (1 << shift) if b & 0x40 else result

    def name(self):
        n = self.uleb()
        self.pos += n
        return self.data[self.pos - n:self.pos].decode("utf-8", "replace")

    def limits(self):
        flags = self.byte()
        self.uleb()
        if flags & 1:
            self.uleb()

    def const_expr(self):
        """A constant expression: the function a `ref.func` names, if any."""
        func = None
        while True:
            op = self.byte()
            if op == 0x0B:
                return func
            if op == 0xD2:
                func = self.uleb()
            elif op in (0x41, 0x42, 0x23, 0xD0):
                self.sleb() if op in (0x41, 0x42) else self.uleb()
            elif op == 0x44:
                self.pos += 8
            elif op == 0x43:
                self.pos += 4
            else:
                raise ValueError(f"constant expression opcode {op:#x}")


class Module:
    def __init__(self, data):
        if data[:4] != b"\0asm":
            raise ValueError("not a wasm module")
        self.data = data
        self.func_imports = []  # (module, name)
        self.exports = []  # (name, kind, index)
        self.start = None
        self.elements = []  # function indexes in element segments
        self.bodies = []  # (start, end) of each defined function's body
        self.segments = []  # (start, end) of each data segment's bytes
        self.names = {}
        self.symbols = []  # (kind, flags, index or (segment, offset, size))
        self.relocs = {}  # section index -> [(type, offset, index)]
        self.code_section = self.data_section = None  # (index, payload start)
        r = Reader(data, 8)
        index = 0
        while r.pos < len(data):
            sid = r.byte()
            size = r.uleb()
            start = r.pos
            if sid == 10:
                self.code_section = (index, start)
            elif sid == 11:
                self.data_section = (index, start)
            self.section(sid, Reader(data, start, start + size))
            r.pos = start + size
            index += 1

    def section(self, sid, r):
        if sid == 0:
            name = r.name()
            if name == "name":
                self.name_section(r)
            elif name == "linking":
                self.linking(r)
            elif name.startswith("reloc."):
                target = r.uleb()
                entries = []
                for _ in range(r.uleb()):
                    kind, offset, index = r.byte(), r.uleb(), r.uleb()
                    if kind in ADDEND:
                        r.sleb()
                    entries.append((kind, offset, index))
                self.relocs[target] = entries
        elif sid == 2:
            for _ in range(r.uleb()):
                module, name, kind = r.name(), r.name(), r.byte()
                if kind == 0:
                    r.uleb()
                    self.func_imports.append((module, name))
                elif kind == 1:
                    r.byte()
                    r.limits()
                elif kind == 2:
                    r.limits()
                elif kind == 3:
                    r.byte()
                    r.byte()
                elif kind == 4:
                    r.byte()
                    r.uleb()
        elif sid == 7:
            for _ in range(r.uleb()):
                self.exports.append((r.name(), r.byte(), r.uleb()))
        elif sid == 8:
            self.start = r.uleb()
        elif sid == 9:
            self.element_section(r)
        elif sid == 10:
            for _ in range(r.uleb()):
                size = r.uleb()
                self.bodies.append((r.pos, r.pos + size))
                r.pos += size
        elif sid == 11:
            for _ in range(r.uleb()):
                flags = r.uleb()
                if flags == 2:
                    r.uleb()
                if flags in (0, 2):
                    r.const_expr()
                size = r.uleb()
                self.segments.append((r.pos, r.pos + size))
                r.pos += size

    def element_section(self, r):
        for _ in range(r.uleb()):
            flags = r.uleb()
            if flags & 2 and not flags & 1:
                r.uleb()  # table index
            if not flags & 1:
                r.const_expr()  # offset
            if flags & 3:
                r.byte()  # elemkind or reftype
            for _ in range(r.uleb()):
                if flags & 4:
                    func = r.const_expr()
                    if func is not None:
                        self.elements.append(func)
                else:
                    self.elements.append(r.uleb())

    def name_section(self, r):
        while r.pos < r.end:
            sub, size = r.byte(), r.uleb()
            end = r.pos + size
            if sub == 1:
                for _ in range(r.uleb()):
                    index = r.uleb()
                    self.names[index] = r.name()
            r.pos = end

    def linking(self, r):
        r.uleb()  # version
        while r.pos < r.end:
            sub, size = r.byte(), r.uleb()
            end = r.pos + size
            if sub == 8:
                for _ in range(r.uleb()):
                    kind, flags = r.byte(), r.uleb()
                    if kind == DATA:
                        name = r.name()
                        where = None
                        if not flags & UNDEFINED:
                            where = (r.uleb(), r.uleb(), r.uleb())
                        self.symbols.append((kind, flags, where, name))
                    elif kind == SECTION:
                        self.symbols.append((kind, flags, r.uleb(), None))
                    else:
                        index = r.uleb()
                        name = None
                        if not flags & UNDEFINED or flags & EXPLICIT_NAME:
                            name = r.name()
                        self.symbols.append((kind, flags, index, name))
            r.pos = end


def graph(m):
    """Edges between nodes ("f", function index) and ("d", data symbol index)."""
    edges = collections.defaultdict(set)
    n_imports = len(m.func_imports)
    code_start, data_start = m.code_section, m.data_section

    def target(kind, index):
        if kind in NO_EDGE or index >= len(m.symbols):
            return None
        sym_kind, _, where, _ = m.symbols[index]
        if sym_kind == FUNC:
            return ("f", where)
        if sym_kind == DATA and where is not None:
            return ("d", index)
        return None

    # Code: a relocation belongs to the body it falls in.
    if code_start:
        starts = [b[0] for b in m.bodies]
        for kind, offset, index in m.relocs.get(code_start[0], []):
            at = code_start[1] + offset
            i = bisect.bisect_right(starts, at) - 1
            if i >= 0 and at < m.bodies[i][1]:
                t = target(kind, index)
                if t:
                    edges[("f", n_imports + i)].add(t)
    # Data: a relocation belongs to the innermost data symbol over it.
    if data_start:
        by_segment = collections.defaultdict(list)
        for index, (kind, _, where, _) in enumerate(m.symbols):
            if kind == DATA and where is not None and where[0] < len(m.segments):
                by_segment[where[0]].append((where[1], where[1] + where[2], index))
        for spans in by_segment.values():
            spans.sort()
        keys = {seg: [s[0] for s in spans] for seg, spans in by_segment.items()}
        seg_starts = [s[0] for s in m.segments]
        for kind, offset, index in m.relocs.get(data_start[0], []):
            at = data_start[1] + offset
            seg = bisect.bisect_right(seg_starts, at) - 1
            if seg < 0 or at >= m.segments[seg][1] or seg not in by_segment:
                continue
            rel = at - m.segments[seg][0]
            spans = by_segment[seg]
            i = bisect.bisect_right(keys[seg], rel) - 1
            while i >= 0:
                lo, hi, sym = spans[i]
                if lo <= rel < hi:
                    t = target(kind, index)
                    if t:
                        edges[("d", sym)].add(t)
                    break
                if rel - lo > 1 << 20:
                    break
                i -= 1
    return edges


def roots(m):
    """The main module's roots, with why each is one."""
    split_exports = {
        index for name, kind, index in m.exports if kind == 0 and name.startswith("__wasm_split_00")
    }
    found = {}
    if m.start is not None:
        found[("f", m.start)] = "the start function"
    for name, kind, index in m.exports:
        if kind == 0 and index not in split_exports:
            found.setdefault(("f", index), f"export `{name}`")
    referenced = set()
    for entries in m.relocs.values():
        for kind, _, index in entries:
            if kind in (1, 2, 12, 18, 19, 24) and index < len(m.symbols):
                referenced.add(m.symbols[index][2])
    for func in m.elements:
        if func not in referenced and func not in split_exports:
            found.setdefault(("f", func), "in the indirect table, referred to by nothing")
    return found, split_exports


def label(m, node):
    kind, index = node
    if kind == "f":
        return f"fn {m.names.get(index, f'#{index}')}"
    name = m.symbols[index][3] or f"#{index}"
    if name.startswith(".Lanon."):
        return f"data {name} (a vtable or a constant)"
    return f"data {name}"


def explore(m, edges, start, split_exports):
    """Breadth first from the roots: each node's first predecessor (shortest paths)."""
    parent = {node: None for node in start}
    queue = collections.deque(start)
    wbg = {
        ("f", i) for i, (module, name) in enumerate(m.func_imports) if name in WBG_ROOTING
    }
    while queue:
        node = queue.popleft()
        for nxt in edges.get(node, ()):
            if nxt in parent or (nxt[0] == "f" and nxt[1] in split_exports):
                continue
            parent[nxt] = node
            queue.append(nxt)
    forced = {node for node, deps in edges.items() if node[0] == "f" and deps & wbg}
    return parent, forced


def retained(m, edges, start, split_exports, parent, forced):
    """(size of each node, bytes each node retains, immediate dominator of each node): the
    dominator tree of the main module's graph (Cooper, Harvey and Kennedy's iteration), from
    one root above the roots."""
    n_imports = len(m.func_imports)

    def size(node):
        kind, i = node
        if kind == "f":
            return 0 if i < n_imports else m.bodies[i - n_imports][1] - m.bodies[i - n_imports][0]
        where = m.symbols[i][2]
        return where[2] if where else 0

    top = ("root", 0)
    succ = collections.defaultdict(list)
    for node in parent:
        succ[node] = [n for n in edges.get(node, ()) if n in parent]
    succ[top] = list(start) + [f for f in forced if f in parent]
    # Reverse post-order, iteratively (the graph is deep).
    order, seen, stack = [], {top}, [(top, iter(succ[top]))]
    while stack:
        node, it = stack[-1]
        for nxt in it:
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, iter(succ[nxt])))
                break
        else:
            order.append(node)
            stack.pop()
    order.reverse()
    index = {node: i for i, node in enumerate(order)}
    preds = collections.defaultdict(list)
    for node in order:
        for nxt in succ[node]:
            preds[nxt].append(node)
    idom = {top: top}

    def meet(a, b):
        while a != b:
            while index[a] > index[b]:
                a = idom[a]
            while index[b] > index[a]:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for node in order[1:]:
            done = [p for p in preds[node] if p in idom]
            if not done:
                continue
            new = done[0]
            for p in done[1:]:
                new = meet(p, new)
            if idom.get(node) != new:
                idom[node] = new
                changed = True
    keeps = collections.Counter()
    for node in reversed(order):
        keeps[node] += size(node)
        if node != top:
            keeps[idom[node]] += keeps[node]
    del keeps[top]
    return size, keeps, idom


def demangle(names):
    """{index: readable name}: Rust's v0 symbols through binutils' c++filt when there is one
    (crate hashes left out), else as they are."""
    keys = list(names)
    if not shutil.which("c++filt"):
        return names
    out = subprocess.run(["c++filt"], input="\n".join(names[k] for k in keys), text=True,
                         capture_output=True).stdout.split("\n")
    if len(out) < len(keys):
        return names
    return {k: re.sub(r"\[[0-9a-f]{1,16}\]", "", line) for k, line in zip(keys, out)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("function", nargs="?")
    ap.add_argument("--wasm", default=str(DEFAULT_WASM))
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--list-main", action="store_true")
    ap.add_argument("--check-split")
    ap.add_argument("--retained", type=int, metavar="N")
    args = ap.parse_args()
    wasm = pathlib.Path(args.wasm)
    if not wasm.is_file():
        sys.exit(f"{wasm}: not there; build the lean widget first (scripts/build-widget.sh)")
    m = Module(wasm.read_bytes())
    if not m.symbols:
        sys.exit(f"{wasm}: no symbol table; link with -Clink-args=--emit-relocs")
    m.names = demangle(m.names)
    edges = graph(m)
    start, split_exports = roots(m)
    parent, forced = explore(m, edges, start, split_exports)
    n_imports = len(m.func_imports)
    reached = {i for kind, i in parent if kind == "f" and i >= n_imports}

    if args.check_split:
        return check_split(m, reached, pathlib.Path(args.check_split))
    if args.list_main:
        for i in sorted(reached):
            print(m.names.get(i, f"#{i}"))
        return 0
    if args.retained is not None:
        size, keeps, idom = retained(m, edges, start, split_exports, parent, forced)
        if args.function:
            # The shortest match: the function itself before its closures.
            node = min((n for n in keeps if args.function in label(m, n)),
                       key=lambda n: len(label(m, n)), default=None)
            if node is None:
                sys.exit(f"nothing in the main module is named {args.function!r}")
            print(f"{keeps[node]:>8} {size(node):>8}  {label(m, node)}")
            parts = [n for n, d in idom.items() if d == node and n != node]
        else:
            parts = list(keeps)
        print(f"{'retains':>8} {'own':>8}  (bytes before wasm-bindgen and wasm-opt)")
        for n in sorted(parts, key=lambda n: -keeps[n])[: args.retained]:
            print(f"{keeps[n]:>8} {size(n):>8}  {label(m, n)}")
        return 0
    if not args.function:
        ap.error("name a function (or --list-main)")
    # The shortest names first: the function itself before its closures and drop glue.
    matches = sorted(
        (i for i, name in m.names.items() if args.function in name and i >= n_imports),
        key=lambda i: len(m.names[i]),
    )
    if not matches:
        sys.exit(f"no function's name contains {args.function!r}")
    in_main = [i for i in matches if i in reached or ("f", i) in forced]
    out = [i for i in matches if i not in in_main]
    shown = in_main if args.all else in_main[:5]
    for i in shown:
        print(f"{m.names[i]}\n  is in the main module:")
        if ("f", i) in forced and ("f", i) not in parent:
            print("    it calls a wasm-bindgen describe function (the splitter keeps its callers)")
            continue
        path, node = [], ("f", i)
        while node is not None:
            path.append(node)
            node = parent[node]
        print(f"    {start[path[-1]]}: {label(m, path[-1])}")
        for node in reversed(path[:-1]):
            print(f"    -> {label(m, node)}")
    if len(in_main) > len(shown):
        print(f"({len(in_main) - len(shown)} more in the main module: --all)")
    if out:
        print(f"{len(out)} matching function(s) no root of the main module reaches (in a split "
              "point's module or a shared chunk), e.g.")
        for i in out[:3]:
            print(f"  {m.names[i]}")
    return 0


def check_split(m, reached, split_dir):
    """Every function the tool says a root reaches is in wasm-split-cli's main module."""
    main_module = Module((split_dir / "agui-widget.wasm").read_bytes())
    in_main = set(demangle(main_module.names).values())
    names = [m.names[i] for i in reached if i in m.names]
    missing = [n for n in names if n not in in_main]
    print(f"why-main: {len(names)} functions reached from the main module's roots; "
          f"the splitter's main module has {len(in_main)} named")
    for n in missing[:20]:
        print(f"  reached but not in the main module: {n}")
    # The splitter also keeps what calls wasm-bindgen's describe functions, and stubs: a few
    # per cent. Far fewer reached means the graph lost its edges.
    if len(names) < 0.95 * len(in_main):
        print("  reached far fewer than the main module has: the graph is missing edges")
        return 1
    return 1 if missing else 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
