#!/usr/bin/env python3
"""Trunk post-build hook: the app page works under a strict Content-Security-Policy
(`script-src 'self' 'wasm-unsafe-eval'; style-src 'self'`, docs/security.md).

Trunk writes the code that starts the wasm as an inline `<script type="module">` in
index.html, which such a policy blocks. This moves it to `boot.js` next to the page and
loads it from there. Usage: boot-file.py STAGING_DIR (trunk's $TRUNK_STAGING_DIR).
"""
import re
import sys
from pathlib import Path

staging = Path(sys.argv[1])
page = staging / "index.html"
html = page.read_text(encoding="utf-8")
# (The release build's HTML is minified: `<script type=module>`.)
inline = re.compile(r"<script type=\"?module\"?>(.*?)</script>", re.S)
found = inline.findall(html)
if len(found) != 1:
    sys.exit(f"boot-file.py: expected one inline module script in {page}, found {len(found)}")
(staging / "boot.js").write_text(found[0].strip() + "\n", encoding="utf-8")
html = inline.sub('<script type="module" src="/boot.js"></script>', html)
if "<style" in html or " style=" in html:
    sys.exit(f"boot-file.py: {page} has inline styles, which a strict CSP blocks")
page.write_text(html, encoding="utf-8")
