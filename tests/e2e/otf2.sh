#!/bin/sh
# End-to-end: a multi-layer OTF2 trace (tests/tools/otf2_write: MPI-IO over POSIX on two ranks)
# through `iodfg convert`, then `iodfg dfg` under a {layer}:{call} rule shows each MPI-IO
# operation followed by the POSIX operations it issued. Skips without OTF2 support.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
B=$IODFG_BIN
W=$(dirname "$B")/tests/tools/otf2_write
if [ ! -x "$W" ]; then
  echo "SKIP: iodfg was built without OTF2 (install libotf2-trace-dev and configure again)"
  exit 77
fi
mkdir "$T/run"
"$W" "$T/run"
check "convert reads the anchor file" "$B" convert -q -o "$T/x.h5" "$T/run/traces.otf2"
check "convert finds the anchor in a directory" "$B" convert -q -o "$T/d.h5" "$T/run"
"$B" info "$T/x.h5" >"$T/info.txt"
check "two cases (locations with I/O)" grep -q '^Cases  *2$' "$T/info.txt"
check "18 events" grep -q '^Events  *18$' "$T/info.txt"
check "case named by group and location" grep -q 'MPI Rank 1/Master thread  *run  *node1  *1 ' "$T/info.txt"
printf 'map call ~ . => {layer}:{call}\n' >"$T/layers.rules"
"$B" dfg -q --format json --rules "$T/layers.rules" "$T/x.h5" >"$T/dfg.json"
# arc FROM TO: count of the transition FROM -> TO
arc() { json "$T/dfg.json" "sum(t['count'] for t in j['transitions'] if t['from']=='$1' and t['to']=='$2')"; }
check "MPI_File_open issues open64 (rank 1)" test "$(arc MPI-IO:MPI_File_open POSIX:open64)" = 1
check "collective write issues pwrite64 (rank 1)" test "$(arc MPI-IO:MPI_File_write_all POSIX:pwrite64)" = 1
check "collective write seeks first (rank 0)" test "$(arc MPI-IO:MPI_File_write_all POSIX:lseek64)" = 1
check "non-blocking read issues pread64" test "$(arc MPI-IO:MPI_File_iread POSIX:pread64)" = 1
check "ISO C fwrite issues write" test "$(arc ISOC:fwrite POSIX:write)" = 1
check "POSIX close precedes MPI_File_close on both ranks" test "$(arc POSIX:close MPI-IO:MPI_File_close)" = 2
# the same from the archive directly (cli_load), without convert
"$B" dfg -q --format json --rules "$T/layers.rules" "$T/run/traces.otf2" >"$T/direct.json"
check "dfg reads the archive directly" test "$(json "$T/direct.json" 'len(j["activities"])')" = 12
finish
