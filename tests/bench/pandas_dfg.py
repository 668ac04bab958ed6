#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Idiomatic Python baseline of iodfg: DFG edge counts and per-activity count, rd, bytes, dr̄
and max concurrency with pandas.
Usage: pandas_dfg.py PREFIX        the events dumped by `bench_engine --dump PREFIX` (reads
                                   PREFIX.bin and PREFIX.keys.tsv): the engine alone
       pandas_dfg.py --traces DIR  every *.st strace file of DIR (one case each), parsed with
                                   plain Python (re) first: what `iodfg convert` + `iodfg stats`
                                   do. Prints its times."""
import glob
import os
import re
import sys
import time

import numpy as np
import pandas as pd

UNKNOWN = np.iinfo(np.int64).min
PREFIX = re.compile(r"(\d+)\s+(\d\d):(\d\d):(\d\d)\.(\d{6}) (.*)")
DONE = re.compile(r"(\w+)\((.*)\) += (-?\d+|\?)(?: \w+ \(.*?\))? <(\d+)\.(\d{6})>$")
UNFINISHED = re.compile(r"(\w+)\((.*) <unfinished \.\.\.>$")
RESUMED = re.compile(r"<\.\.\. (\w+) resumed>(.*)\) += (-?\d+|\?)(?: \w+ \(.*?\))? <(\d+)\.(\d{6})>$")
ANNOT = re.compile(r"<([^<>]*)>")
QUOTED = re.compile(r'"([^"]*)"')
DATA = {"read", "write", "pread64", "pwrite64", "readv", "writev"}


def activity(call, args):
    """The paper's f-hat: call:path cut to its top two directory levels, non-files by kind."""
    m = ANNOT.search(args) or QUOTED.search(args)
    if not m:
        return call
    path = m.group(1)
    if not path.startswith("/"):
        return call + ":" + path.split(":")[0]
    parts = path.split("/")
    return call + ":" + "/".join(parts[:3])


def parse(path, case, rows):
    """Append (case, activity, start ns, dur ns, size) for every call of one strace -f -tt -T -y
    file; unfinished calls are joined with their resumed halves by pid."""
    pending = {}
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            m = PREFIX.match(line.rstrip("\n"))
            if not m:
                continue
            pid, h, mi, s, us, body = m.groups()
            start = ((int(h) * 60 + int(mi)) * 60 + int(s)) * 1000000000 + int(us) * 1000
            d = DONE.match(body)
            if d:
                call, args, ret, ds, dus = d.groups()
            else:
                u = UNFINISHED.match(body)
                if u:
                    pending[pid] = (u.group(1), u.group(2), start)
                    continue
                r = RESUMED.match(body)
                if not r or pid not in pending:
                    continue
                call, args, start = pending.pop(pid)
                _, rest, ret, ds, dus = r.groups()
                args += rest
            dur = int(ds) * 1000000000 + int(dus) * 1000
            size = int(ret) if call in DATA and ret != "?" and int(ret) >= 0 else UNKNOWN
            rows.append((case, activity(call, args), start, dur, size))


def from_traces(directory):
    rows = []
    for case, path in enumerate(sorted(glob.glob(os.path.join(directory, "*.st")))):
        parse(path, case, rows)
    df = pd.DataFrame(rows, columns=["case", "activity", "start", "dur", "size"])
    df["activity"] = df["activity"].astype("category")
    return df


def from_dump(prefix):
    rows = np.fromfile(prefix + ".bin", dtype=np.dtype(
        [("case", "<i4"), ("key", "<i4"), ("start", "<i8"), ("dur", "<i8"), ("size", "<i8")]))
    keys = pd.read_csv(prefix + ".keys.tsv", sep="\t", header=None, names=["key", "activity"])
    df = pd.DataFrame(rows)
    # mapping: key -> activity (categorical, like the engine's integer ids)
    act = pd.Categorical(keys["activity"])
    df["activity"] = pd.Categorical.from_codes(act.codes[df["key"].to_numpy()], act.categories)
    return df


def main(argv):
    t0 = time.perf_counter()
    if argv[0] == "--traces":
        df = from_traces(argv[1])
        t_parse = time.perf_counter()
    else:
        df = from_dump(argv[0])
        t0 = t_parse = time.perf_counter()  # the engine comparison leaves reading out
    unknown = UNKNOWN
    df = df.sort_values(["case", "start"], kind="stable")
    # DFG: directly-follows pairs within a case, plus start and end edges
    nxt = df.groupby("case", sort=False)["activity"].shift(-1)
    pairs = pd.DataFrame({"from": df["activity"].astype(str), "to": nxt.astype(str)})
    first = df.groupby("case", sort=False)["activity"].first().astype(str)
    last = df.groupby("case", sort=False)["activity"].last().astype(str)
    pairs.loc[nxt.isna(), "to"] = "■"
    edges = pd.concat([pairs, pd.DataFrame({"from": "●", "to": first.values})])
    counts = edges.groupby(["from", "to"], sort=False).size()
    # statistics
    dur = df["dur"].where(df["dur"] != unknown, 0)
    size = df["size"].where(df["size"] != unknown, 0)
    df = df.assign(d=dur, b=size)
    ok = (df["dur"] > 0) & (df["size"] != unknown)
    df["rate"] = np.where(ok, size * 1e9 / df["dur"].where(ok, 1), np.nan)
    g = df.groupby("activity", observed=True)
    stats = pd.DataFrame({"count": g.size(), "cases": g["case"].nunique(), "dur": g["d"].sum(),
                          "bytes": g["b"].sum(), "dr_mean": g["rate"].mean()})
    stats["rd"] = stats["dur"] / stats["dur"].sum()
    # max concurrency: sweep over +1 at start, -1 at end (ends first at equal times)
    pos = df[df["dur"] > 0]
    ev = pd.concat([
        pd.DataFrame({"activity": pos["activity"], "t": pos["start"], "k": 1}),
        pd.DataFrame({"activity": pos["activity"], "t": pos["start"] + pos["dur"], "k": -1})])
    ev = ev.sort_values(["activity", "t", "k"], kind="stable")
    stats["mc"] = ev.groupby("activity", observed=True)["k"].cumsum().groupby(
        ev["activity"], observed=True).max()
    stats["DR"] = stats["mc"] * stats["dr_mean"]
    t1 = time.perf_counter()
    print(f"events: {len(df)}")
    print(f"edges: {len(counts)} (end edges {len(last)})")
    print(stats.sort_values("count", ascending=False).head(3).to_string())
    print(f"pandas_parse_ms: {(t_parse - t0) * 1e3:.0f}")
    print(f"pandas_dfg_stats_ms: {(t1 - t_parse) * 1e3:.0f}")
    print(f"pandas_total_ms: {(t1 - t0) * 1e3:.0f}")


if __name__ == "__main__":
    main(sys.argv[1:])
