#!/usr/bin/env python3
"""Checks the links of the documentation: README.md, CHANGELOG.md, SECURITY.md and docs/**/*.md.

    python3 scripts/check-docs.py [REPO_ROOT]

- Every relative link `[text](path)`, `[text](path#anchor)`, `[text](#anchor)` (images and
  reference definitions too) resolves to an existing file, and its anchor exists in the target
  Markdown file as mdBook and GitHub generate it from a heading: the heading's text lowercased,
  every character that is not alphanumeric, a space, a hyphen or an underscore dropped, spaces
  turned into hyphens; a repeated heading gets -1, -2, … A link to an .html file inside docs/
  (the built book's name for a chapter) is checked against the chapter's .md.
- A link from the book (docs/) stays inside docs/: mdBook copies nothing from outside it.
- Every chapter file of docs/ (but SUMMARY.md) is listed in docs/SUMMARY.md, once, and every
  entry of SUMMARY.md exists.
- External http(s) links are not fetched (no network), but must be well-formed.
- Links inside fenced code blocks and inline code are not links.

Prints each problem as `file:line: message` and exits 1 if there is any; otherwise prints a
one-line summary and exits 0. Python 3 standard library only.
"""

import os
import re
import sys
import urllib.parse

FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
# [text](dest "title") — text may hold one level of nested brackets; dest may be <…> or hold
# balanced parentheses.
INLINE_LINK = re.compile(
    r"(!?)\[((?:[^\[\]\\]|\\.|\[(?:[^\[\]\\]|\\.)*\])*)\]"
    r"\(\s*(<[^<>\n]*>|(?:[^\s()\\]|\\.|\([^\s()]*\))*)"
    r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^()]*\)))?\s*\)"
)
REF_DEF = re.compile(r"^ {0,3}\[([^\]]+)\]:\s*(<[^>]*>|\S+)", re.M)
AUTOLINK = re.compile(r"<((?:https?|mailto):[^<>\s]*)>")
HOST = re.compile(r"^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*"
                  r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")
URL_BAD_CHARS = set(' \t\n"<>\\^`{|}')


class Problems:
    def __init__(self):
        self.items = []

    def add(self, path, line, message):
        self.items.append((path, line, message))


def rel(root, path):
    return os.path.relpath(path, root).replace(os.sep, "/")


def markdown_files(root):
    files = []
    for name in ("README.md", "CHANGELOG.md", "SECURITY.md"):
        path = os.path.join(root, name)
        if os.path.isfile(path):
            files.append(path)
    docs = os.path.join(root, "docs")
    for dirpath, dirnames, filenames in os.walk(docs):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".md"):
                files.append(os.path.join(dirpath, name))
    return files


def blank_fences(text):
    """The text with every fenced code block's lines (fences included) emptied; lines stay."""
    out = []
    fence = None  # the open fence's backticks or tildes
    for line in text.split("\n"):
        m = FENCE.match(line)
        if fence is None:
            if m:
                fence = m.group(1)
                out.append("")
            else:
                out.append(line)
            continue
        # A closing fence: the same character, at least as long, nothing after it.
        if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                and not line.strip().strip(fence[0]):
            fence = None
        out.append("")
    return "\n".join(out)


def blank_code_spans(text):
    """Inline code spans replaced by spaces (newlines kept), per CommonMark's backtick runs: a
    span opens with a run of N backticks and closes at the next run of exactly N, within one
    paragraph (a blank line ends it)."""
    chars = list(text)
    i, n = 0, len(text)
    while i < n:
        if text[i] == "\\" and i + 1 < n:
            i += 2
            continue
        if text[i] != "`":
            i += 1
            continue
        j = i
        while j < n and text[j] == "`":
            j += 1
        run = j - i
        k = j
        close = -1
        while k < n:
            if text.startswith("\n\n", k) or re.match(r"\n[ \t]*\n", text[k:k + 64]):
                break
            if text[k] == "`":
                m = k
                while m < n and text[m] == "`":
                    m += 1
                if m - k == run:
                    close = k
                    break
                k = m
                continue
            k += 1
        if close < 0:
            i = j  # a lone backtick run is literal text
            continue
        for p in range(i, close + run):
            if chars[p] != "\n":
                chars[p] = " "
        i = close + run
    return "".join(chars)


def heading_text(raw):
    """A heading's text as rendered: code spans' contents kept without backticks, links and
    images reduced to their text, HTML tags and emphasis markers dropped, escapes resolved."""
    parts = re.split(r"(`+)(.*?)\1", raw)
    # re.split with two groups yields: text, ticks, code, text, ticks, code, …, text
    out = []
    for idx in range(0, len(parts), 3):
        plain = parts[idx]
        plain = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", plain)
        plain = re.sub(r"<[^>]+>", "", plain)
        plain = plain.replace("*", "")
        plain = re.sub(r"(?<![A-Za-z0-9])_+|_+(?![A-Za-z0-9])", "", plain)
        plain = re.sub(r"\\(.)", r"\1", plain)
        out.append(plain)
        if idx + 2 < len(parts):
            out.append(parts[idx + 2].strip())
    return "".join(out)


def slug(text):
    chars = []
    for ch in text.strip().lower():
        if ch.isalnum() or ch in "-_":
            chars.append(ch)
        elif ch.isspace():
            chars.append("-")
    return "".join(chars)


_anchor_cache = {}


def anchors(path):
    """The anchors mdBook/GitHub generate for the headings of a Markdown file."""
    if path in _anchor_cache:
        return _anchor_cache[path]
    with open(path, encoding="utf-8") as f:
        lines = blank_fences(f.read()).split("\n")
    seen = {}
    result = set()

    def add(text):
        base = slug(heading_text(text))
        count = seen.get(base, 0)
        seen[base] = count + 1
        result.add(base if count == 0 else f"{base}-{count}")

    prev = ""
    for line in lines:
        m = ATX.match(line)
        if m:
            add(m.group(2) or "")
            prev = ""
            continue
        s = SETEXT.match(line)
        if s and prev.strip() and not prev.lstrip().startswith(("|", "-", "*", "+", ">")) \
                and not re.match(r"^\s*\d+[.)]\s", prev) and not ATX.match(prev):
            add(prev.strip())
            prev = ""
            continue
        prev = line
    _anchor_cache[path] = result
    return result


def check_external(url, where, problems):
    if any(c in URL_BAD_CHARS for c in url):
        problems.add(*where, f"malformed URL (space or character that must be escaped): {url}")
        return
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port  # raises ValueError on a bad port
    except ValueError as e:
        problems.add(*where, f"malformed URL ({e}): {url}")
        return
    if parts.scheme == "mailto":
        if not re.match(r"^[^@\s]+@[^@\s]+\.[^@\s]+$", parts.path):
            problems.add(*where, f"malformed mailto link: {url}")
        return
    host = parts.hostname or ""
    if not parts.netloc or not host:
        problems.add(*where, f"malformed URL (no host): {url}")
    elif not (HOST.match(host) and ("." in host or host == "localhost")) and \
            not re.match(r"^[0-9a-f:.]+$", host):
        problems.add(*where, f"malformed URL (bad host {host!r}): {url}")
    elif port is not None and not 0 < port < 65536:
        problems.add(*where, f"malformed URL (bad port): {url}")


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def check_file(root, path, problems, stats):
    docs = os.path.join(root, "docs")
    in_book = os.path.commonpath([path, docs]) == docs
    with open(path, encoding="utf-8") as f:
        original = f.read()
    text = blank_code_spans(blank_fences(original))
    links = []
    for m in INLINE_LINK.finditer(text):
        start = m.start()
        if start > 0 and text[start - 1] == "\\":
            continue
        dest = m.group(3)
        if dest.startswith("<") and dest.endswith(">"):
            dest = dest[1:-1]
        links.append((line_of(text, start), dest, m.group(1) == "!"))
    for m in REF_DEF.finditer(text):
        dest = m.group(2)
        if dest.startswith("<") and dest.endswith(">"):
            dest = dest[1:-1]
        links.append((line_of(text, m.start()), dest, False))
    for m in AUTOLINK.finditer(text):
        links.append((line_of(text, m.start()), m.group(1), False))

    name = rel(root, path)
    # Text that looks like a link but does not parse as one (a space in the target, an
    # unbalanced parenthesis) renders as plain text: almost always a typo.
    covered = [False] * len(text)
    for m in INLINE_LINK.finditer(text):
        for p in range(m.start(), m.end()):
            covered[p] = True
    for m in re.finditer(r"\]\(", text):
        if not covered[m.start()] and not (m.start() > 0 and text[m.start() - 1] == "\\"):
            problems.add(name, line_of(text, m.start()), "text that looks like a link but does not parse as one")

    for line, dest, image in links:
        stats["links"] += 1
        where = (name, line)
        dest = dest.replace("\\", "")
        if not dest:
            problems.add(*where, "empty link target")
            continue
        scheme = re.match(r"^([A-Za-z][A-Za-z0-9+.-]*):", dest)
        if scheme:
            stats["external"] += 1
            if scheme.group(1).lower() not in ("http", "https", "mailto"):
                problems.add(*where, f"link with an unexpected scheme: {dest}")
            else:
                check_external(dest, where, problems)
            continue
        if dest.startswith("//"):
            problems.add(*where, f"protocol-relative URL (write https://): {dest}")
            continue
        if dest.startswith("/"):
            problems.add(*where, f"absolute path (use a path relative to this file): {dest}")
            continue
        target, _, anchor = dest.partition("#")
        target = urllib.parse.unquote(target)
        if target:
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), target))
        else:
            resolved = path
        shown = rel(root, resolved)
        if in_book and os.path.commonpath([resolved, docs]) != docs:
            problems.add(*where, f"link leaves the book (mdBook copies nothing outside docs/): {dest}")
            continue
        if resolved.endswith(".html") and os.path.commonpath([resolved, docs]) == docs:
            resolved = resolved[: -len(".html")] + ".md"
            shown = rel(root, resolved)
        if not os.path.exists(resolved):
            problems.add(*where, f"link to a missing file: {dest} ({shown})")
            continue
        if os.path.isdir(resolved):
            if in_book:
                problems.add(*where, f"link to a directory (the book has no page for it): {dest}")
            elif anchor:
                problems.add(*where, f"anchor on a directory link: {dest}")
            continue
        if anchor:
            if not resolved.endswith(".md"):
                continue  # anchors into other files (source lines…) are not checked
            stats["anchors"] += 1
            if urllib.parse.unquote(anchor) not in anchors(resolved):
                problems.add(*where, f"no heading for anchor #{anchor} in {shown}")


def check_summary(root, problems, stats):
    docs = os.path.join(root, "docs")
    summary = os.path.join(docs, "SUMMARY.md")
    name = rel(root, summary)
    if not os.path.isfile(summary):
        problems.add(name, 1, "missing: the book's table of contents")
        return
    with open(summary, encoding="utf-8") as f:
        text = blank_code_spans(blank_fences(f.read()))
    listed = {}
    for m in INLINE_LINK.finditer(text):
        line = line_of(text, m.start())
        dest = m.group(3)
        if not dest:
            problems.add(name, line, f"draft chapter without a file: [{m.group(2)}]()")
            continue
        if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", dest) or "#" in dest or not dest.endswith(".md"):
            problems.add(name, line, f"a SUMMARY entry must be a chapter's .md file: {dest}")
            continue
        resolved = os.path.normpath(os.path.join(docs, urllib.parse.unquote(dest)))
        if resolved in listed:
            problems.add(name, line, f"listed twice (first on line {listed[resolved]}): {dest}")
            continue
        listed[resolved] = line
        if not os.path.isfile(resolved):
            problems.add(name, line, f"chapter file missing: {dest}")
    stats["chapters"] = len(listed)
    for dirpath, dirnames, filenames in os.walk(docs):
        dirnames.sort()
        for fname in sorted(filenames):
            path = os.path.join(dirpath, fname)
            if fname.endswith(".md") and path != summary and path not in listed:
                problems.add(rel(root, path), 1, "chapter not listed in docs/SUMMARY.md")


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else
                           os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    problems = Problems()
    stats = {"files": 0, "links": 0, "external": 0, "anchors": 0, "chapters": 0}
    summary = os.path.join(root, "docs", "SUMMARY.md")
    for path in markdown_files(root):
        stats["files"] += 1
        if path != summary:  # its links are chapters, checked below
            check_file(root, path, problems, stats)
    check_summary(root, problems, stats)
    if problems.items:
        for path, line, message in sorted(problems.items):
            print(f"{path}:{line}: {message}")
        print(f"check-docs: {len(problems.items)} problem(s)", file=sys.stderr)
        return 1
    print(f"check-docs: ok — {stats['files']} files, {stats['links']} links "
          f"({stats['external']} external, not fetched), {stats['anchors']} anchors, "
          f"{stats['chapters']} chapters in docs/SUMMARY.md")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
