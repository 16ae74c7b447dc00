#!/usr/bin/env bash
# Renders an HTML report (`dlfl rank --format html`) in headless Chromium (Debian package
# `chromium`): a PNG screenshot, or with --dump-dom the DOM after its scripts ran, on
# stdout. The browser runs with a fresh profile, no network services and no sandbox (CI
# containers have no user namespaces).
# Usage: scripts/html-screenshot.sh REPORT.html OUT.png [WIDTHxHEIGHT]
#        scripts/html-screenshot.sh --dump-dom REPORT.html
set -euo pipefail
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "html-screenshot: chromium is not installed (apt-get install chromium)" >&2; exit 2; }
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
       --disable-sync --no-first-run --user-data-dir="$profile" --hide-scrollbars)
if [ "${1:-}" = "--dump-dom" ]; then
  "$browser" "${flags[@]}" --dump-dom "file://$(realpath "$2")" 2>/dev/null
  exit
fi
size=${3:-1400x900}
"$browser" "${flags[@]}" --window-size="${size/x/,}" --screenshot="$(realpath -m "$2")" "file://$(realpath "$1")" 2>/dev/null
[ -s "$2" ] || { echo "html-screenshot: chromium wrote no screenshot" >&2; exit 2; }
