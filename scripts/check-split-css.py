#!/usr/bin/env python3
"""The lean widget's split stylesheet (src/ui/styles.rs): the rules of the modules' half come
only with the first module, so none of them may style what the main module renders alone.

Reads the main module (its data holds the class names its views write) and build.rs's halves
of the sheet; fails naming every selector of the modules' half whose classes the main module
names — every class of it, so it could match before any module is here — and every selector
without a class of ours (`:host`, an element) outside keyframes.

    scripts/check-split-css.py MAIN.wasm OUT_DIR
"""
import pathlib
import re
import sys

# Classes the main module's strings hold only as the start of another name.
NAMED_ELSEWHERE = {
    # `agui-tool-card__element`: a page's custom element card (widget.rs), in a tool card.
    "agui-tool-card",
    # `agui-form-ID`: the id of a generated form's field (ui/hitl/schema_form.rs).
    "agui-form",
}


def main(wasm, out_dir):
    out = pathlib.Path(out_dir)
    main_css = (out / "stylesheet-main.css").read_bytes()
    modules_css = (out / "stylesheet-modules.css").read_text()
    data = pathlib.Path(wasm).read_bytes()
    if main_css not in data:
        sys.exit(f"{wasm}: the main half of the stylesheet is not in it as one string")
    # What the main module's code names (its own stylesheet aside). Its strings are stored
    # end to end, so a class is looked for as a substring (a longer name that starts with it
    # counts: cautious), a modifier built at run time (`agui-x--{kind}`) by its `agui-x--`.
    code = data.replace(main_css, b"").decode("latin-1")

    def in_main(cls):
        if cls in NAMED_ELSEWHERE:
            return False
        return cls in code or ("--" in cls and cls[:cls.index("--") + 2] in code)

    css = re.sub(r'"[^"]*"|\'[^\']*\'', '""', modules_css.replace("/**/", ""))
    bad, stack = [], []
    for m in re.finditer(r"([^{};]*)\{|\}", css):
        if m.group(0) == "}":
            if stack:
                stack.pop()
            continue
        prelude = m.group(1).strip()
        in_keyframes = any(p.startswith("@keyframes") for p in stack)
        stack.append(prelude)
        if prelude.startswith("@") or in_keyframes:
            continue
        for selector in prelude.split(","):
            classes = re.findall(r"\.(agui-[a-z0-9_-]+)", selector)
            if not classes or all(in_main(c) for c in classes):
                bad.append(selector.strip())
    for s in bad:
        print(f"styled only once a module is here, but the main module may render it: {s}",
              file=sys.stderr)
    if bad:
        print("move these rules out of the /* @modules */ runs of style/*.css", file=sys.stderr)
        return 1
    print("[check-split-css] no rule of the modules' half of the stylesheet can match what "
          "the main module renders alone")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
