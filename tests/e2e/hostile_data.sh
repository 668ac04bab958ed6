#!/bin/sh
# End-to-end: 1000 copies of a real event log (the ior example), each with one random byte
# changed (a fixed seed), never change the output of `iodfg stats` silently: each either gives
# the same output as the intact log or is refused (exit 1, naming the log), never another
# output, never a crash. The sanitizer build, ten times slower, runs 100 of them (HOSTILE_FLIPS
# sets the number).
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
n=${HOSTILE_FLIPS:-1000}
if [ -z "${HOSTILE_FLIPS:-}" ] && "$IODFG_BIN" --version | grep -q 'sanitizers yes'; then
  n=100
fi
"$IODFG_BIN" convert -q -o "$T/log.h5" "$IODFG_TEST_DATA/traces/ior"
"$PY" - "$IODFG_BIN" "$T/log.h5" "$n" "$T" <<'PY'
import os, random, subprocess, sys
binary, log, n, tmp = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
data = open(log, "rb").read()
cmd = [binary, "stats", "--format", "tsv", "--transitions"]
good = subprocess.run(cmd + [log], capture_output=True, check=True).stdout
rng = random.Random(40)
same = refused = 0
bad = []
flipped = os.path.join(tmp, "flip.h5")
for i in range(n):
    d = bytearray(data)
    at = rng.randrange(len(d))
    d[at] ^= rng.randrange(1, 256)
    with open(flipped, "wb") as f:
        f.write(d)
    r = subprocess.run(cmd + [flipped], capture_output=True)
    if r.returncode == 0 and r.stdout == good:
        same += 1
    elif r.returncode == 1 and b"flip.h5: " in r.stderr and not r.stdout:
        refused += 1
    else:
        bad.append("byte %d: exit %d, %s" % (at, r.returncode, r.stderr[-200:]))
print("%d flips: %d the same output, %d refused, %d otherwise" % (n, same, refused, len(bad)))
for b in bad[:10]:
    print("FAIL -", b)
sys.exit(1 if bad else 0)
PY
