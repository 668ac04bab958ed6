#!/bin/sh
# Record tests/data/traces/callsites: the call-site test program (tests/tools/callsites, built by
# make check with -g) under strace -f -k, and once more without -k, each in its own case file.
# The build tree's absolute path (in the program's frames and the working directory) is written
# as /home/user/run, so that the copy names no developer's machine; `--symbols BUILD/tests/tools`
# finds the program again for file:line.
# Usage: tests/tools/record_callsites.sh BUILD_DIR OUT_DIR
set -eu
prog="$1/tests/tools/callsites"
out=$2
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/iodfg-callsites.XXXXXX")
trap 'rm -rf "$work"' EXIT
strace -f -k -tt -T -y -o "$out/stacks_node1_1.st" "$prog" "$work"
strace -f -tt -T -y -o "$out/plain_node1_1.st" "$prog" "$work"
build=$(cd "$1" && pwd)
top=$(cd "$build/.." && pwd)
for f in "$out/stacks_node1_1.st" "$out/plain_node1_1.st"; do
  sed -i "s|$build/tests/tools/callsites|/home/user/run/callsites|g; s|$top|/home/user/run|g" "$f"
done
