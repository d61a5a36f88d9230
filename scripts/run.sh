#!/usr/bin/env bash
# Install what's missing (scripts/setup.sh), then build and serve the app with
# live reload:  scripts/run.sh   ->  http://127.0.0.1:${PORT:-8080}/
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# shellcheck source=scripts/setup.sh
. scripts/setup.sh

export TRUNK_SKIP_VERSION_CHECK=true
PORT="${PORT:-8080}"
echo "[run] serving on http://127.0.0.1:${PORT}/ (Ctrl-C to stop)"
exec trunk serve --address 127.0.0.1 --port "${PORT}" "$@"
