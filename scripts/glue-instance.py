#!/usr/bin/env python3
"""Makes a wasm-bindgen glue (`--target web`) able to start fresh wasm instances: its body goes
into a function, called once for the module's own exports (so the glue works as before:
`init`, `initSync`, the exported classes) and again by `__aguiFresh()`, which gives a new copy
(`{default: init, kill, …}`) whose init makes a new instance with its own memory, tables and
caches. `kill()` (`__aguiKill` for the module's own copy) stops a copy for good: its closures
(event listeners, timers, promise callbacks) and its finalizers no longer call into its wasm, so
a stopped instance cannot trap again after the page got a fresh one.

The loader (src/loader/agui-chat.js) asks for one after the chat stopped on a trap. It used to
import the glue again under another URL (`agui-widget.js?i=N`), which a bundler's output
cannot do: in a Vite or webpack build the glue is a chunk of the bundler's, under a name of its
choosing. Also makes the glue's default wasm URL `./NAME_bg.wasm` (a bundler resolves a
relative specifier; wasm-bindgen writes a bare one).

    scripts/glue-instance.py GLUE [--minify] [--page INDEX_HTML]

`--minify`: the result minified by terser (the repository's package.json; scripts/setup.sh
installs it), like the loader: a quarter of the glue's gzip bytes.
`--page`: the page's `integrity` of GLUE (trunk preloads it with one) is written anew.
Fails when the glue is not of the shape it knows (a wasm-bindgen whose output changed).
"""

import base64
import hashlib
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fail(msg):
    print(f"glue-instance: {msg}", file=sys.stderr)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    page = None
    minify = "--minify" in args
    if minify:
        args.remove("--minify")
    if "--page" in args:
        i = args.index("--page")
        page = args[i + 1]
        del args[i : i + 2]
    if len(args) != 1:
        fail("usage: glue-instance.py GLUE [--minify] [--page INDEX_HTML]")
    path = args[0]
    glue = open(path, encoding="utf-8").read()
    if "__aguiFresh" in glue:
        print(f"glue-instance: {path} already makes fresh instances")
        return
    lines = glue.split("\n")
    imports = [l for l in lines if re.match(r"^import .* from ['\"][^'\"]+['\"];?$", l)]
    body = "\n".join(l for l in lines if l not in imports)

    names = []

    def exported(m):
        names.append(m.group(2))
        return f"{m.group(1)} {m.group(2)}"

    body = re.sub(r"^export (class|function|const|let) ([A-Za-z0-9_$]+)", exported, body, flags=re.M)
    tail = re.compile(r"^export \{ initSync, __wbg_init as default \};\n?", re.M)
    if len(tail.findall(body)) != 1:
        fail(f"{path}: no `export {{ initSync, __wbg_init as default }};`")
    body = tail.sub("", body)
    if re.search(r"^\s*export\b", body, flags=re.M):
        fail(f"{path}: an export of a shape not known here")
    # A killed copy's closures and finalizers return at once.
    real = "const real = (...args) => {\n"
    if body.count(real) != 2:
        fail(f"{path}: not two closure makers (`{real.strip()}`)")
    body = body.replace(real, real + "        if (__aguiDead) return;\n")
    dtors = "new FinalizationRegistry(state => wasm.__wbindgen_destroy_closure(state.a, state.b))"
    if body.count(dtors) != 1:
        fail(f"{path}: no `{dtors}`")
    body = body.replace(dtors, "new FinalizationRegistry(state => __aguiDead || wasm.__wbindgen_destroy_closure(state.a, state.b))")
    name = os.path.basename(path)[: -len(".js")]
    default_url = f"new URL('{name}_bg.wasm', import.meta.url)"
    if default_url not in body:
        fail(f"{path}: no `{default_url}`")
    body = body.replace(default_url, f"new URL('./{name}_bg.wasm', import.meta.url)")

    members = ", ".join(["default: __wbg_init", "initSync", "kill: () => { __aguiDead = true; }"] + names)
    out = "\n".join(imports) + "\n\n"
    out += (
        "// scripts/glue-instance.py: the glue in a function, so that a fresh wasm instance needs no\n"
        "// new import of this module (`__aguiFresh`, used by the loader after a trap).\n"
        "function __aguiGlue() {\n"
        "let __aguiDead = false;\n"
        + body.strip("\n")
        + f"\nreturn {{ {members} }};\n}}\n"
        "const __aguiFirst = __aguiGlue();\n"
        "export default __aguiFirst.default;\n"
        "export const initSync = __aguiFirst.initSync;\n"
        "export const __aguiKill = __aguiFirst.kill;\n"
        + "".join(f"export const {n} = __aguiFirst.{n};\n" for n in names)
        + "/** A fresh copy of the glue: `{default: init, kill, …}`; its init makes a new instance. */\n"
        "export const __aguiFresh = () => __aguiGlue();\n"
    )
    open(path, "w", encoding="utf-8").write(out)
    if minify:
        terser = os.path.join(ROOT, "node_modules", "terser", "bin", "terser")
        if not os.path.isfile(terser):
            fail(f"{terser} is missing: run scripts/setup.sh (npm ci)")
        done = subprocess.run(["node", terser, path, "--module", "--compress", "--mangle",
                               "--output", path])
        if done.returncode != 0:
            fail(f"terser could not minify {path}")
        out = open(path, encoding="utf-8").read()
    if page:
        html = open(page, encoding="utf-8").read()
        digest = base64.b64encode(hashlib.sha384(out.encode()).digest()).decode()
        pattern = re.compile(r"(href=\"?/?" + re.escape(os.path.basename(path)) + r"\"? integrity=\"?)sha384-[A-Za-z0-9+/=]+")
        html, n = pattern.subn(lambda m: m.group(1) + "sha384-" + digest, html)
        if n == 0 and "integrity=" in html and os.path.basename(path) in html:
            fail(f"{page}: {os.path.basename(path)}'s integrity not found where expected")
        open(page, "w", encoding="utf-8").write(html)
    print(f"glue-instance: {path} ({len(names)} exports besides init)")


if __name__ == "__main__":
    main()
