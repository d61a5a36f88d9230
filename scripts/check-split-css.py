#!/usr/bin/env python3
"""The lean widget's split stylesheet (src/ui/styles.rs): the sheets of the modules' half
(`Half::Modules` in build/sheets.rs) come only with the first module, so none of their rules
may style what the main module renders alone.

Reads the main module (its data holds the class names its views write) and build.rs's halves
of the sheet; fails naming every selector of the modules' half whose classes the main module
names — every class of it, so it could match before any module is here — and every selector
without a class of ours (`:host`, an element) outside keyframes, with the sheet it is in.

    scripts/check-split-css.py MAIN.wasm OUT_DIR
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Classes the main module's strings hold only as the start of another name.
NAMED_ELSEWHERE = {
    # `agui-tool-card__element`: a page's custom element card (widget.rs), in a tool card.
    "agui-tool-card",
    # `agui-form-ID`: the id of a generated form's field (ui/hitl/schema_form.rs).
    "agui-form",
}


def modules_sheets():
    """{name: text roughly minified} of the modules' sheets (build/sheets.rs), to say where a
    selector is."""
    listed = (ROOT / "build" / "sheets.rs").read_text()
    sheets = {}
    for name in re.findall(r'\("([a-z0-9-]+)", Half::Modules\)', listed):
        css = (ROOT / "style" / f"{name}.css").read_text()
        css = re.sub(r"/\*.*?\*/", " ", css, flags=re.S)
        css = re.sub(r"\s+", " ", css)
        sheets[name] = re.sub(r" ?([{},;]) ?", r"\1", css)
    return sheets


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
    sheets = modules_sheets() if bad else {}
    for s in bad:
        where = [f"style/{n}.css" for n, css in sheets.items() if s in css] or ["?"]
        print(f"styled only once a module is here, but the main module may render it: {s} "
              f"({', '.join(where)})", file=sys.stderr)
    if bad:
        print("move these rules into a sheet of the main half (Half::Main in build/sheets.rs)",
              file=sys.stderr)
        return 1
    print("[check-split-css] no rule of the modules' half of the stylesheet can match what "
          "the main module renders alone")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
