# Shared set-up of the MPI tests (sourced after lib.sh): skip without iodfg-mpi or mpirun, allow
# mpirun as root for these tests only, and run jobs with `job N ARGS...`.
IODFG_MPI=${IODFG_BUILDDIR:?}/iodfg-mpi
[ -x "$IODFG_MPI" ] || { echo "SKIP: iodfg-mpi not built (./configure --with-mpi)"; exit 77; }
MPIRUN=$(command -v mpirun || true)
[ -n "$MPIRUN" ] || { echo "SKIP: mpirun not found (Debian: openmpi-bin)"; exit 77; }
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OMPI_MCA_rmaps_base_oversubscribe=1 # more processes than cores
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM OMPI_MCA_rmaps_base_oversubscribe
# OpenMPI keeps some memory to the end: leak checks of ASan builds would only see that
ASAN_OPTIONS=detect_leaks=0
export ASAN_OPTIONS
job() { # job N ARGS...: iodfg-mpi ARGS on N processes
  n=$1; shift
  "$MPIRUN" --oversubscribe -n "$n" "$IODFG_MPI" "$@"
}
