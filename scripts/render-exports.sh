#!/usr/bin/env bash
# Exports every preset as SVG (English and Chinese) and renders each one to PNG with headless
# Chromium, so the diagrams can be looked at the way a slide deck would show them.
#
#   scripts/render-exports.sh [OUT_DIR]        (default: target/exports)
#
# Needs Debian's chromium and a CJK font: apt-get install chromium fonts-noto-cjk
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/exports}"
mkdir -p "$out"
cargo build --release --quiet
bin=target/release/locklab
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "chromium not found: apt-get install chromium fonts-noto-cjk" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for name in $("$bin" sim list | awk '/^[a-z]/ {print $1}'); do
  for lang in en zh; do
    svg="$out/$name.$lang.svg"
    "$bin" --lang "$lang" export "$name" --format svg -o "$svg"
    height=$(sed -n 's/.*<svg[^>]* height="\([0-9.]*\)".*/\1/p' "$svg" | head -1)
    "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
      --disable-background-networking --disable-component-update --disable-sync \
      --user-data-dir="$(mktemp -d -p "$work")" --hide-scrollbars \
      --window-size="1000,${height%.*}" --screenshot="$out/$name.$lang.png" "file://$(realpath "$svg")" \
      >"$work/chromium.log" 2>&1 || { cat "$work/chromium.log" >&2; exit 1; }
    [ -s "$out/$name.$lang.png" ] || { echo "no picture for $svg" >&2; exit 1; }
    echo "$out/$name.$lang.png"
  done
done
