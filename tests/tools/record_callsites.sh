#!/bin/sh
# Record tests/data/traces/callsites: the call-site test program (tests/tools/callsites, built by
# make check with -g) under strace -f -k, and once more without -k, each in its own case file.
# Usage: tests/tools/record_callsites.sh BUILD_DIR OUT_DIR
set -eu
prog="$1/tests/tools/callsites"
out=$2
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/iodfg-callsites.XXXXXX")
trap 'rm -rf "$work"' EXIT
strace -f -k -tt -T -y -o "$out/stacks_node1_1.st" "$prog" "$work"
strace -f -tt -T -y -o "$out/plain_node1_1.st" "$prog" "$work"
