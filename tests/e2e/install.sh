#!/bin/sh
# `make install` ships what --help and the man page point to, every --help fits 80 columns,
# and nothing a user reads names the papers by our internal numbers.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
: "${IODFG_BUILDDIR:?run through make check}"
D="$T/dest"
${MAKE:-make} -s -C "$IODFG_BUILDDIR" install DESTDIR="$D" >"$T/install.log" 2>&1 ||
  { cat "$T/install.log"; fail "make install"; finish; }
bin=$(find "$D" -path '*/bin/iodfg' -type f | head -n 1)
docdir=$(find "$D" -type d -path '*/doc/iodfg' | head -n 1)
check "installed: the program" test -x "$bin"
check "installed: the man page" test -n "$(find "$D" -name iodfg.1 -path '*/man1/*')"
check "installed: the themes" test -n "$(find "$D" -name dark.theme -path '*/iodfg/themes/*')"
cmds="convert info tui dfg stats characterize bandwidth handles export"
{ "$bin" --help; for c in $cmds; do "$bin" "$c" --help; done; } >"$T/help.txt"
man_src="$IODFG_SRCDIR/doc/iodfg.1"
for doc in $(cat "$T/help.txt" "$man_src" | grep -o '[a-z]*\.md' | sort -u); do
  check "installed: $doc, which --help or the man page names" test -f "$docdir/$doc"
done
# The documents' directory is on a line of its own: its length is the installer's choice.
check "--help lines fit 80 columns (the documents' directory aside)" "$PY" -c '
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
sys.exit(any(len(l) > 80 and not (i and lines[i - 1].endswith(", in"))
             for i, l in enumerate(lines)))' "$T/help.txt"
check "no internal paper numbers in --help, README, man page or doc/" sh -c \
  "! grep -rniE 'seeds? ?0[0-9][0-9]' '$T/help.txt' '$IODFG_SRCDIR/README' '$man_src' '$IODFG_SRCDIR/doc'"
check "installed: the bash completion" test -n "$(find "$D" -path '*/bash-completion/completions/iodfg')"
check "installed: the zsh completion" test -n "$(find "$D" -path '*/zsh/site-functions/_iodfg')"
# a DESTDIR copy is an installation moved elsewhere: its themes are found beside the program
"$bin" --version >"$T/version.txt"
themes=$(sed -n 's/^themes: //p' "$T/version.txt")
check "--version: the build options" grep -q '^build: OTF2 input .*, MPI (iodfg-mpi) .*, sanitizers' "$T/version.txt"
check "--version: a themes directory that holds the themes" test -f "$themes/dark.theme"
check "--list-themes: the installed themes" sh -c "'$bin' --list-themes | grep -qx colorblind"

# The tarball (make dist) configured with --prefix=\$HOME/.local, built, installed and run by a
# user who is not root. Not repeated inside `make distcheck` (its source tree is read-only and
# it is itself the tarball's build).
if [ ! -w "$IODFG_SRCDIR" ] || [ -n "${IODFG_NO_TARBALL_TEST:-}" ]; then
  echo "# the tarball install is not repeated here (inside make distcheck, or IODFG_NO_TARBALL_TEST)"
  finish
fi
# The user reads nothing of the checkout, which may be where it cannot (root's home, mode 700, on
# a fresh Debian): it works in its home, $H, on a copy of the traces.
as_user() { (cd "$H" && "$@"); }
if [ "$(id -u)" -eq 0 ]; then
  command -v setpriv >/dev/null 2>&1 || { echo "# root without setpriv: tarball test skipped"; finish; }
  as_user() { (cd "$H" && setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"); }
  chmod 755 "$T"
fi
H="$T/home"; mkdir "$H"; chmod 777 "$H"
cp -R "$IODFG_TEST_DATA/traces/paper" "$H/paper" && chmod -R a+rX "$H/paper"
# the tarball's contents (make distdir, what make dist packs), packed here under a name of ours
${MAKE:-make} -s -C "$IODFG_BUILDDIR" distdir distdir="$H/iodfg-tar" >"$T/dist.log" 2>&1 ||
  { cat "$T/dist.log"; fail "make distdir"; finish; }
# It holds every file git tracks but the repository's own dotfiles: CI's make distcheck-fast runs
# only the fast tier from the tarball and relies on this for the rest of the suite's files.
if git -C "$IODFG_SRCDIR" ls-files >"$T/tracked.txt" 2>/dev/null && [ -s "$T/tracked.txt" ]; then
  grep -v '^\.\|/\.keep$' "$T/tracked.txt" | while IFS= read -r f; do
    [ -e "$H/iodfg-tar/$f" ] || echo "$f"
  done >"$T/undist.txt"
  check "the tarball holds every file git tracks ($(wc -l <"$T/tracked.txt") files; missing: $(head -n 5 "$T/undist.txt" | tr '\n' ' '))" \
    [ ! -s "$T/undist.txt" ]
else
  echo "# not a git checkout (or git cannot read it): the tarball's completeness is not checked"
fi
(cd "$H" && tar czf iodfg-tar.tar.gz iodfg-tar && rm -rf iodfg-tar) || { fail "tar"; finish; }
# the unpacked sources are made read-only below: writable again before they are removed
trap 'chmod -R u+w "$H" 2>/dev/null; [ -n "${KEEP_T:-}" ] || rm -rf "$T"' EXIT
chmod a+r "$H/iodfg-tar.tar.gz"
# What make distcheck checks of a tarball, once (CI runs no distcheck of its own): the sources
# read-only, the build in a directory of its own, and after make install, uninstall and distclean
# nothing left behind. Compiled at -O0: what is checked is the packaging, and the suite's own
# build compiles the same sources optimised (a third less CPU for this build).
as_user env HOME="$H" sh -c 'cd "$HOME" && tar xzf iodfg-tar.tar.gz && chmod -R a-w iodfg-tar &&
  mkdir build && cd build &&
  ../iodfg-tar/configure --prefix="$HOME/.local" --enable-werror CFLAGS="-g -O0" &&
  make -j2 &&
  make install' >"$T/tar.log" 2>&1 ||
  { tail -n 30 "$T/tar.log"; fail "tarball: configure, make, make install as a user"; finish; }
ok "tarball: configure --prefix=\$HOME/.local (read-only sources, out of tree), make, make install without root"
L="$H/.local"
as_user env HOME="$H" "$L/bin/iodfg" --version >"$T/v2.txt" 2>&1
check "tarball: --version finds the themes in the prefix" grep -qx "themes: $L/share/iodfg/themes" "$T/v2.txt"
check "tarball: the documents are where --version says" sh -c \
  "test -f '$(sed -n 's/^documents: //p' "$T/v2.txt")/interchange.md'"
check "tarball: runs (export from a trace)" as_user env HOME="$H" "$L/bin/iodfg" export -q \
  --format csv -o "$H/x.csv" "$H/paper"
check "tarball: man page and completions in the prefix" sh -c \
  "test -f '$L/share/man/man1/iodfg.1' && test -f '$L/share/bash-completion/completions/iodfg' && test -f '$L/share/zsh/site-functions/_iodfg'"
check "tarball: the CHANGELOG is in it" test -f "$H/iodfg-tar/CHANGELOG"
as_user env HOME="$H" sh -c 'cd build && make uninstall' >"$T/uninstall.log" 2>&1 ||
  { tail -n 20 "$T/uninstall.log"; fail "tarball: make uninstall"; }
check "tarball: make uninstall leaves no file in the prefix ($(find "$L" -type f | head -n 3 | tr '\n' ' '))" \
  [ -z "$(find "$L" -type f)" ]
as_user env HOME="$H" sh -c 'cd build && make distclean' >"$T/distclean.log" 2>&1 ||
  { tail -n 20 "$T/distclean.log"; fail "tarball: make distclean"; }
check "tarball: make distclean leaves no file in the build directory ($(find "$H/build" -type f | head -n 3 | tr '\n' ' '))" \
  [ -z "$(find "$H/build" -type f)" ]
finish
