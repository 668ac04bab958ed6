#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Idiomatic pandas baseline of the engine benchmark: DFG edge counts and per-activity count,
rd, bytes, dr̄ and max concurrency on the events dumped by `bench_engine --dump PREFIX`.
Usage: pandas_dfg.py PREFIX   (reads PREFIX.bin and PREFIX.keys.tsv; prints its times)."""
import sys
import time

import numpy as np
import pandas as pd


def main(prefix):
    rows = np.fromfile(prefix + ".bin", dtype=np.dtype(
        [("case", "<i4"), ("key", "<i4"), ("start", "<i8"), ("dur", "<i8"), ("size", "<i8")]))
    keys = pd.read_csv(prefix + ".keys.tsv", sep="\t", header=None, names=["key", "activity"])
    df = pd.DataFrame(rows)
    unknown = np.iinfo(np.int64).min
    t0 = time.perf_counter()
    # mapping: key -> activity (categorical, like the engine's integer ids)
    act = pd.Categorical(keys["activity"])
    df["activity"] = pd.Categorical.from_codes(act.codes[df["key"].to_numpy()], act.categories)
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
    print(f"pandas_dfg_stats_ms: {(t1 - t0) * 1e3:.0f}")


if __name__ == "__main__":
    main(sys.argv[1])
