#!/bin/sh
# Regenerate the README's pictures (doc/img/*.png) from the IOR runs recorded under strace
# (tests/data/traces/ior-real.tar.xz): each command's SVG rendered to PNG by rsvg-convert
# (through `--format png`), 800 px wide. Needs tar, xz and rsvg-convert (librsvg2-bin).
#   tests/tools/pictures_doc.sh [PATH/TO/iodfg]      (default: build/iodfg)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
iodfg=${1:-$top/build/iodfg}
command -v rsvg-convert >/dev/null 2>&1 || { echo "rsvg-convert is needed (apt-get install librsvg2-bin)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -C "$work" -xJf "$top/tests/data/traces/ior-real.tar.xz"
"$iodfg" convert -q -o "$work/ior-real.h5" "$work/ior-real"
cd "$work" # the pictures name the log as given: ior-real.h5
img=$top/doc/img
mkdir -p "$img"
# the commands as the README shows them
"$iodfg" heatmap -q --format png --width 800 -f -o "$img/heatmap.png" ior-real.h5
"$iodfg" offsets -q --format png --width 800 -f -o "$img/offsets.png" \
  --file /tmp/scratch/posixssf/test ior-real.h5
"$iodfg" timeline -q --format png --width 800 -f -o "$img/timeline.png" --focus app --lanes 8 ior-real.h5
ls -l "$img"/heatmap.png "$img"/offsets.png "$img"/timeline.png
