#!/bin/sh
# The README's section "Speed as an MPI job" from the output of `make bench-mpi` (never typed by
# hand):
#   tests/bench/mpi_section.sh BENCH_MPI_OUTPUT            print the section
#   tests/bench/mpi_section.sh BENCH_MPI_OUTPUT README     replace the section in README
set -eu
[ $# -ge 1 ] && [ -f "$1" ] || { echo "usage: $0 BENCH_MPI_OUTPUT [README]" >&2; exit 2; }
out=$1
TITLE="Speed as an MPI job"

# A row's verdict names the measure that falls short, so that a row met by its best runs only
# does not read as met.
section() {
  awk -v title="$TITLE" '
    function verdict(best, median) {
      if (best >= goal && median >= goal) return "met"
      if (best >= goal) return "best only"
      if (median >= goal) return "median only"
      return "not met"
    }
    /^machine: / { sub(/^machine: /, ""); machine = $0 }
    /^date: / { date = $2 }
    /^runs: / { runs = $2 }
    /^strong scaling: / {
      n = split($0, f, ", ")
      lines = f[2]; sub(/ lines/, "", lines)
      set = sprintf("%.2f M lines", lines / 1e6)
      sets = sets (sets == "" ? "" : " and ") sprintf("%.2f M lines (%s)", lines / 1e6, f[3])
      how = f[1]; sub(/^strong scaling: [0-9]+ files /, "", how)
      kind = how
    }
    / transport: / {
      # before 2026-12-08 the default row was the choice of Open MPI, said to be UCX
      transport = $0 ~ /UCX/ ? "UCX" : $0 ~ /as mpirun gives it/ ? "auto" : "shm"
      ucx = ucx || transport == "UCX"
    }
    /^weak scaling: / { weak = 1; sub(/^weak scaling: /, ""); weakset = $0; next }
    !weak && / on [12]: / {
      p = $0; sub(/.*in the program /, "", p); sub(/ s,.*/, "", p)
      t[$0 ~ / on 1: / ? 1 : 2] = p
    }
    !weak && /speedup at 2/ {
      rows++
      cmd = $1
      whole = $0; sub(/.*whole job /, "", whole); sub(/x,.*/, "", whole)
      best = $0; sub(/.*whole job [0-9.]+x, in the program /, "", best); sub(/x;.*/, "", best)
      median = $0; sub(/.*pairs in the program /, "", median); sub(/x,.*/, "", median)
      range = $0; sub(/.*their range /, "", range); sub(/ \(.*/, "", range)
      goal = $0; sub(/.*\(goal /, "", goal); sub(/x\).*/, "", goal)
      row[rows] = sprintf("%-12s %-4s %-7s %7s s %6s s %5sx %6sx %5sx (%s) %s", set, transport,
        cmd, t[1], t[2], whole, best, median, range, verdict(best + 0, median + 0))
    }
    !weak && / against iodfg with / {
      v = $0; sub(/^ +/, "", v)
      vs[++nvs] = sprintf("%-12s %s", set, v)
    }
    weak && / on [0-9]+: / {
      w++
      procs = $3; sub(/:/, "", procs)
      time = $4
      mem = $0; sub(/.*largest process /, "", mem); sub(/,.*/, "", mem)
      meta = $0; sub(/.*metadata /, "", meta)
      wrow[w] = sprintf("%-9s %7s s  %-15s  %s", procs, time, mem, meta)
    }
    END {
      if (!rows || !w || date == "" || machine == "" || runs == "") {
        print "not the output of make bench-mpi: its date, machine, runs and rows" > "/dev/stderr"
        exit 1
      }
      print title
      u = title; gsub(/./, "-", u); print u
      print "Measured by `make bench-mpi` on " date " (" machine "), " runs " pairs of runs per"
      print "row (one process, then two, in turn); tests/bench/mpi_section.sh writes this section from"
      print "its output, and `./dev.sh bench-mpi` installs, builds and runs it. Strong scaling of"
      print "convert and stats on the traces of 96 IOR-like processes, " kind ":"
      print sets "."
      print "Times are in the program (MPI_Init to MPI_Finalize, the slowest process), each side at"
      print "its best. Speed-ups at 2 processes: of the whole job (launch and MPI_Init included) and in"
      print "the program, best against best, then the median and the range of the ratios of the pairs."
      if (ucx)
        print "Transport: the default of Open MPI (UCX), or its one-node shared memory (shm: ob1 + vader)."
      else {
        print "Transport: as a plain mpirun gives it (auto: on one node iodfg-mpi asks for pml ob1), or"
        print "the explicit one-node shared memory (shm: ob1 + vader)."
      }
      print "Goal: " goal "x; \"best only\" says that the best runs reach it and the median pair does not."
      print "doc/mpi.md says where the time goes and why it varies this much on this machine."
      print ""
      printf "    %-12s %-4s %-7s %9s %8s %6s %7s %6s %-12s %s\n", "trace set", "MPI", "command",
        "on 1", "on 2", "job", "program", "pairs", "(range)", "goal"
      for (i = 1; i <= rows; i++) print "    " row[i]
      print ""
      if (nvs) {
        print "Against the serial iodfg on the same traces with as many threads (shm, best of each):"
        print ""
        for (i = 1; i <= nvs; i++) print "    " vs[i]
        print ""
      }
      print "Weak scaling, convert of " weakset " (generated): the memory of a"
      print "process and the log metadata should stay flat; the time grows once processes outnumber cores."
      print ""
      printf "    %-9s %9s  %-15s  %s\n", "processes", "time", "largest process", "log metadata"
      for (i = 1; i <= w; i++) print "    " wrow[i]
      print ""
    }' "$out"
}

# the section's text (its status kept), then printed or put in place of README's
text=$(section) || exit 1
printf '%s\n\n' "$text" | sh "$(dirname "$0")/readme_section.sh" "$TITLE" ${2:+"$2"}
