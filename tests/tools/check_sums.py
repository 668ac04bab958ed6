#!/usr/bin/env python3
"""Recompute the checksums of an iodfg event log (format 4.1) as doc/format.md defines them,
with h5py and xxhash, and compare them with those the log holds.

check_sums.py LOG   exit 0 when every checksum agrees, 1 when one does not (named), 77 when
                    h5py, numpy or xxhash is missing
"""
import sys

try:
    import h5py
    import numpy
    import xxhash
    from numpy.lib import recfunctions
except ImportError as e:
    print("check_sums.py: skipped:", e)
    sys.exit(77)

MASK = (1 << 64) - 1


def le(a):
    """The values as little-endian bytes, members packed for a table."""
    if a.dtype.names:
        a = recfunctions.repack_fields(a)
        a = a.astype(numpy.dtype([(n, a.dtype[n].newbyteorder("<")) for n in a.dtype.names]))
    else:
        a = a.astype(a.dtype.newbyteorder("<"))
    return a


def dataset_sum(ds):
    a = le(ds[:])
    if not a.dtype.names:  # an array of integers: XXH3-64 of all values
        return xxhash.xxh3_64_intdigest(a.tobytes())
    total = 0  # a table: the sum of its rows' XXH3-64, row i with seed i
    for i in range(len(a)):
        total = (total + xxhash.xxh3_64_intdigest(a[i : i + 1].tobytes(), seed=i)) & MASK
    return total


def main(path):
    bad = []
    with h5py.File(path, "r") as f:
        assert f.attrs["version"] == 4 and f.attrs["minor"] >= 1, "not a 4.1 log"
        names = []
        f.visititems(lambda n, o: names.append(n) if isinstance(o, h5py.Dataset) else None)
        for name in names:
            if name.startswith("events/") or name.startswith("cases/"):
                continue
            if int(f[name].attrs["checksum"]) != dataset_sum(f[name]):
                bad.append(name)
        # the /events columns: each case's rows in blocks of 65536, one row of sums per block
        sums = f["event_checksums"][:]
        cols = {c: f["events"][c] for c in sums.dtype.names}
        b = 0
        for case in f["case_table"][:]:
            first, rows = int(case["first"]), int(case["rows"])
            for a in range(0, rows, 65536):
                k = min(65536, rows - a)
                for c, col in cols.items():
                    v = le(col[first + a : first + a + k]).tobytes()
                    if xxhash.xxh3_64_intdigest(v) != int(sums[b][c]):
                        bad.append("events/%s block %d" % (c, b))
                b += 1
        if b != len(sums):
            bad.append("event_checksums: %d rows, %d blocks" % (len(sums), b))
    for name in bad:
        print("check_sums.py: %s: checksum differs" % name)
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
