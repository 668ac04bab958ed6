# Helpers of the hostile-input tests (sourced after lib.sh).

# raw FILE...: exit 1 when a file holds a terminal control byte: C0 but tab and newline, DEL,
# a C1 control as one byte or as UTF-8 (U+0080..U+009F). Files of printable ASCII, tabs and
# newlines only (most outputs) are clean without starting Python (grep: 1 = no other byte found).
raw() {
  st=0
  LC_ALL=C grep -qa "$(printf '[^\t -~]')" "$@" || st=$?
  [ "$st" != 1 ] || return 0
  "$PY" -c '
import sys
def bad(data):
    text = data.decode("utf-8", "surrogateescape")
    return any((c < " " and c not in "\t\n") or c == "\x7f" or "\x80" <= c <= "\x9f"
               or "\udc80" <= c <= "\udcff" for c in text)
sys.exit(any(bad(open(f, "rb").read()) for f in sys.argv[1:]))' "$@"
}
