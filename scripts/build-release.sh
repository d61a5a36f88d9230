#!/usr/bin/env bash
# The release bundles a site ships, into dist/: the app's page (`trunk build --release`) and
# the lean widget next to it (scripts/build-widget.sh, which takes the same arguments as
# there: no-ai-sdk, no-protobuf, no-a2ui, no-mcp-apps). Both with the standard library rebuilt
# for size (scripts/release-env.sh); a plain `trunk build --release` works too, only bigger.
#
#   scripts/build-release.sh [build-widget.sh arguments…]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export TRUNK_SKIP_VERSION_CHECK=true
(
    # shellcheck source=scripts/release-env.sh
    source scripts/release-env.sh
    trunk build --release
)
scripts/build-widget.sh "$@"
