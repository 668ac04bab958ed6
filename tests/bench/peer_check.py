#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Check that iodfg and the pandas peer (peer_bench.py's pandas stage) found the same DFG and the
same per-activity statistics on the same traces.
Usage: peer_check.py IODFG_DFG.tsv PEER_OUT_DIR
IODFG_DFG.tsv is `iodfg dfg --format tsv --filter call!=exit_group,exit TRACES` (its activity
table, a blank line, its edge table); PEER_OUT_DIR holds dfg_edges.pandas.tsv and
activity_stats.pandas.tsv. Where the two contracts differ, the comparison follows the peer's:
  - the peer drops calls that never return ('= ?': exit_group, exit): iodfg leaves them out
    with the filter above;
  - the peer's size is any call's return value (an lseek's offset, an openat's descriptor), so
    its bytes and mean rate are compared for the calls whose return value is a byte count (those
    src/io/strace_calls.c marks IODFG_CALL_SIZE) only; iodfg counts no bytes for the others.
Every activity's count, total and relative duration (to 1e-9) and maximum concurrency, and every
edge's count, must be equal. Prints what it compared; exits 1 and lists the first differences
otherwise."""
import csv
import math
import os
import sys

SIZE_CALLS = {"copy_file_range", "pread", "pread64", "preadv", "preadv2", "pwrite", "pwrite64",
              "pwritev", "pwritev2", "read", "readv", "recv", "recvfrom", "recvmsg", "send",
              "sendfile", "sendfile64", "sendmsg", "sendto", "splice", "tee", "vmsplice", "write",
              "writev"}
NAMES = {"●": "__START__", "■": "__END__"}


def read_iodfg(path):
    """The activity rows and the edge counts of iodfg's dfg TSV."""
    acts, edges, table = {}, {}, 0
    with open(path, encoding="utf-8") as f:
        for row in csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            if not row:
                continue
            if row[0] in ("activity", "from"):
                table += 1
                head = row
                continue
            r = dict(zip(head, row))
            if table == 1:
                acts[r["activity"]] = r
            else:
                edges[(NAMES.get(r["from"], r["from"]), NAMES.get(r["to"], r["to"]))] = int(r["count"])
    return acts, edges


def read_peer(d):
    acts, edges = {}, {}
    with open(os.path.join(d, "activity_stats.pandas.tsv"), encoding="utf-8") as f:
        for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            acts[r["activity"]] = r
    with open(os.path.join(d, "dfg_edges.pandas.tsv"), encoding="utf-8") as f:
        for row in csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            edges[(row[0], row[1])] = int(row[2])
    return acts, edges


def close(a, b, rel=1e-8):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= rel * max(abs(a), abs(b)) + 1e-12


def num(s):
    return float(s) if s not in ("", "nan", "NaN") else float("nan")


def compare_activity(name, i, p):
    """The differences of one activity, as text."""
    out = []
    if int(i["count"]) != int(float(p["count"])):
        out.append(f"count {i['count']} != {p['count']}")
    if not close(int(i["dur_sum_ns"]) / 1e9, num(p["total_dur"])):
        out.append(f"total duration {int(i['dur_sum_ns']) / 1e9} s != {p['total_dur']} s")
    if not close(num(i["rd"]), num(p["rel_dur"])):
        out.append(f"relative duration {i['rd']} != {p['rel_dur']}")
    if int(i["mc"]) != int(float(p["max_conc"])):
        out.append(f"max concurrency {i['mc']} != {p['max_conc']}")
    if name.split(":")[0] in SIZE_CALLS:
        if int(i["bytes"]) != int(float(p["bytes"])):
            out.append(f"bytes {i['bytes']} != {p['bytes']}")
        rate = num(i["dr_mean_Bps"])
        rate = float("nan") if rate == 0 and int(i["bytes"]) == 0 else rate
        if not close(rate, num(p["rate_mean"])):
            out.append(f"mean rate {i['dr_mean_Bps']} != {p['rate_mean']}")
    return out


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    ia, ie = read_iodfg(argv[1])
    pa, pe = read_peer(argv[2])
    bad = []
    for name in sorted(set(ia) ^ set(pa)):
        bad.append(f"activity {name}: only in {'iodfg' if name in ia else 'the peer'}")
    sized = 0
    for name in sorted(set(ia) & set(pa)):
        sized += name.split(":")[0] in SIZE_CALLS
        bad += [f"activity {name}: {d}" for d in compare_activity(name, ia[name], pa[name])]
    for e in sorted(set(ie) | set(pe)):
        if ie.get(e) != pe.get(e):
            bad.append(f"edge {e[0]} -> {e[1]}: iodfg {ie.get(e, 0)}, the peer {pe.get(e, 0)}")
    events = sum(int(r["count"]) for r in ia.values())
    print(f"check: {len(ia)} activities ({sized} with bytes compared), {len(ie)} edges, "
          f"{events} events: " + ("equal" if not bad else f"{len(bad)} differences"))
    for b in bad[:20]:
        print(f"  {b}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
