# Helpers of the hostile-input tests (sourced after lib.sh).

# raw FILE...: exit 1 when a file holds a terminal control byte: C0 but tab and newline, DEL,
# a C1 control as one byte or as UTF-8 (U+0080..U+009F)
raw() { "$PY" -c '
import sys
def bad(data):
    text = data.decode("utf-8", "surrogateescape")
    return any((c < " " and c not in "\t\n") or c == "\x7f" or "\x80" <= c <= "\x9f"
               or "\udc80" <= c <= "\udcff" for c in text)
sys.exit(any(bad(open(f, "rb").read()) for f in sys.argv[1:]))' "$@"; }
