#!/usr/bin/env bash
# Where the lean widget's bytes go (scripts/size-report.py): builds it (scripts/build-widget.sh;
# `--no-build` reads what the last build left, as CI's release stage does) and prints what a
# page fetches at each step and, per module, the largest crates and our own modules.
#
#   scripts/size-report.sh [--no-build] [size-report.py's options: --all, --top N, --budget B]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ "${1:-}" = --no-build ]; then
    shift
else
    scripts/build-widget.sh >&2
fi
exec python3 scripts/size-report.py "$@"
