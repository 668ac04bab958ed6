#!/usr/bin/env python3
"""busy_trace.py N: an strace -tt -T -y trace of N reads on standard output, large enough to
catch `iodfg convert` at work (the interrupt and kill tests)."""
import sys

n = int(sys.argv[1])
sys.stdout.writelines(
    '1 08:%02d:%02d.%06d read(3</data/in>, "", 4096) = 4096 <0.000002>\n'
    % (i // 60000000 % 60, i // 1000000 % 60, i % 1000000)
    for i in range(n)
)
