#!/bin/sh
# The key list in doc/iodfg.1 is the one the binary's key tables produce (`iodfg --list-keys
# --man`), so the manual never drifts from the keys.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
"$IODFG_BIN" --list-keys --man >"$T/keys.man"
awk '/^\.SS Everywhere \(keymap global\)/ {on = 1} /^\.SH EXIT STATUS/ {on = 0} on' \
  "$IODFG_SRCDIR/doc/iodfg.1" >"$T/page.man"
check "the manual's key list is the binary's" diff -u "$T/keys.man" "$T/page.man"
check "the key list names the overview" grep -q '(overview)' "$T/keys.man"
finish
