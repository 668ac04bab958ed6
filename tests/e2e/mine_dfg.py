#!/usr/bin/env python3
"""Mine the Directly-Follows Graph of an exported event log the way process-mining tools do,
and compare it with `iodfg dfg --format tsv`.

    mine_dfg.py csv|xes EXPORT DFG.tsv

Events are grouped by case:concept:name, sorted within each case by time:timestamp (a stable
sort: rows of equal time keep their file order, as PM4Py's format_dataframe does), and every
pair of consecutive activities is counted, plus start -> first and last -> end. Activity
counts are compared too. Prints the differences and exits 1 when there are any."""
import collections
import csv
import sys
import xml.etree.ElementTree as ET

START, END = "START", "END"
# the start and end nodes as `iodfg dfg --format tsv` names them (UTF-8 or the C locale)
NODE_NAMES = {"\u25cf": START, "\u25a0": END, "[start]": START, "[end]": END}


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            yield row["case:concept:name"], row["time:timestamp"], row["concept:name"]


def read_xes(path):
    for trace in ET.parse(path).getroot().iter("trace"):
        case = next(a.get("value") for a in trace if a.get("key") == "concept:name")
        for ev in trace.iter("event"):
            attrs = {a.get("key"): a.get("value") for a in ev}
            yield case, attrs["time:timestamp"], attrs["concept:name"]


def mine(events):
    cases = collections.OrderedDict()
    for case, ts, act in events:
        cases.setdefault(case, []).append((ts, act))
    edges, acts = collections.Counter(), collections.Counter()
    for evs in cases.values():
        # times are written with one fixed width per file: text order is time order
        trace = [a for _, a in sorted(evs, key=lambda e: e[0])]
        acts.update(trace)
        for a, b in zip([START] + trace, trace + [END]):
            edges[(a, b)] += 1
    return edges, acts


def read_dfg_tsv(path):
    with open(path, encoding="utf-8") as f:
        tables = f.read().split("\n\n")
    acts, edges = collections.Counter(), collections.Counter()
    for line in tables[0].splitlines()[1:]:
        cols = line.split("\t")
        acts[cols[0]] = int(cols[1])
    for line in tables[1].splitlines()[1:]:
        cols = line.split("\t")
        a, b = (NODE_NAMES.get(c, c) for c in cols[:2])
        edges[(a, b)] = int(cols[2])
    return edges, acts


def main():
    kind, export, tsv = sys.argv[1:4]
    edges, acts = mine(read_csv(export) if kind == "csv" else read_xes(export))
    want_edges, want_acts = read_dfg_tsv(tsv)
    bad = 0
    for what, got, want in (("edge", edges, want_edges), ("activity", acts, want_acts)):
        for k in sorted(set(got) | set(want), key=str):
            if got[k] != want[k]:
                print(f"{what} {k}: mined {got[k]}, iodfg dfg {want[k]}")
                bad += 1
    print(f"{sum(edges.values())} transitions, {len(edges)} edges, {len(acts)} activities; "
          f"{bad} differences")
    sys.exit(1 if bad or not edges else 0)


if __name__ == "__main__":
    main()
