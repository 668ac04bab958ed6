#!/bin/sh
# The paper's strace wrapper (Sankaran et al. 2024, Fig. 1): one trace file per process, named
# {cid}_{host}_{rid}.st with rid = this wrapper's pid. Use it under srun/mpirun:
#   IODFG_CID=a srun -n 3 ./strace.sh ls
# IODFG_CID (default "run"), IODFG_HOST (default $(hostname)), IODFG_TRACE (extra strace
# options, e.g. "-e trace=read,write") and IODFG_OUTDIR (default .) adjust it.
cid=${IODFG_CID:-run}
host=${IODFG_HOST:-$(hostname)}
# shellcheck disable=SC2086
exec strace -f -tt -T -y ${IODFG_TRACE:-} -o "${IODFG_OUTDIR:-.}/${cid}_${host}_$$.st" "$@"
