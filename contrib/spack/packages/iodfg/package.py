# SPDX-License-Identifier: MIT
# Spack recipe for iodfg. Use it from this repository (README, "Installing without root"):
#   spack repo add contrib/spack
#   spack develop --path "$PWD" iodfg@=main && spack add iodfg@=main && spack install
import os

from spack.package import *

try:  # Spack 1.0 and later keep the build systems in the builtin package repository
    from spack_repo.builtin.build_systems.autotools import AutotoolsPackage
except ImportError:  # Spack 0.x: spack.package exports them
    pass


class Iodfg(AutotoolsPackage):
    """I/O Directly-Follows Graphs from system-call traces: turns the strace logs (or Score-P
    OTF2 traces, or CSV event logs) of many processes into one HDF5 event log and a
    Directly-Follows Graph of I/O activities with statistics, with a command line and an
    ncurses terminal UI for login nodes."""

    # iodfg publishes no release tarballs yet: there is no url to fetch, so versions are built
    # from a checkout with `spack develop`. When tarballs (`make dist`) are published, add
    # url = ".../iodfg-0.1.0.tar.gz" and version("0.1.0", sha256="..."); until then
    # `spack audit packages iodfg` says it cannot guess a fetch strategy for @main.
    version("main")

    license("MIT")

    variant("otf2", default=False, description="Read Score-P OTF2 traces (iodfg convert)")
    variant(
        "mpi",
        default=False,
        description="Also build iodfg-mpi, the MPI job; iodfg then uses the same parallel HDF5",
    )

    depends_on("c", type="build")
    # a checkout has no configure script: the autoreconf phase below makes it
    depends_on("autoconf", type="build", when="@main")
    depends_on("automake", type="build", when="@main")
    depends_on("autoconf-archive", type="build", when="@main")  # AX_PTHREAD and others
    depends_on("pkgconfig", type="build")

    depends_on("ncurses")  # ncursesw, the wide-character library
    depends_on("pcre2")
    depends_on("xxhash")
    depends_on("zlib-api")  # the last chunk of each event column is deflated by iodfg itself
    # direct chunk I/O (H5Dwrite_chunk, H5Dget_chunk_info_by_coord) needs HDF5 1.10.5. One
    # environment holds one HDF5: with +mpi, configure --with-mpi builds iodfg against the
    # parallel one too (it runs without mpirun, on HDF5's default file driver).
    depends_on("hdf5@1.10.5: ~mpi", when="~mpi")
    depends_on("hdf5@1.10.5: +mpi", when="+mpi")
    depends_on("mpi", when="+mpi")
    depends_on("otf2", when="+otf2")
    depends_on("check@0.10:", type="test")  # libcheck, for the unit tests of `make check`

    def autoreconf(self, spec, prefix):
        # Spack's default phase also wants libtool, which iodfg does not use
        autoreconf = which("autoreconf", required=True)
        autoreconf("-fi", *self.autoreconf_search_path_args)

    def configure_args(self):
        args = self.with_or_without("otf2")
        args += self.with_or_without("mpi")
        return args

    def test_version(self):
        """iodfg --version names the version, the build's options and its HDF5"""
        iodfg = which(self.prefix.bin.iodfg, required=True)
        out = iodfg("--version", output=str, error=str)
        if not self.spec.satisfies("@main"):  # a checkout says the version it will become
            assert "iodfg " + str(self.spec.version) in out
        assert "OTF2 input " + ("yes" if self.spec.satisfies("+otf2") else "no") in out
        assert "HDF5 " + str(self.spec["hdf5"].version) in out

    def test_themes(self):
        """the installed themes are found through the data directory"""
        iodfg = which(self.prefix.bin.iodfg, required=True)
        out = iodfg("--list-themes", output=str.split, error=str.split)
        assert "dark" in out

    def test_convert_stats(self):
        """iodfg converts a small strace log and ranks its activities, without mpirun"""
        with open("run1_node1_100.st", "w") as trace:
            trace.write(
                '100 10:00:00.000100 openat(AT_FDCWD, "/scratch/out.dat", O_WRONLY|O_CREAT,'
                " 0644) = 3 <0.000020>\n"
                '100 10:00:00.000200 write(3, "abcd", 4) = 4 <0.000010>\n'
                '100 10:00:00.000300 write(3, "abcd", 4) = 4 <0.000010>\n'
                "100 10:00:00.000400 close(3) = 0 <0.000005>\n"
            )
        iodfg = which(self.prefix.bin.iodfg, required=True)
        iodfg("convert", "-o", "run.h5", "run1_node1_100.st", output=str, error=str)
        out = iodfg("stats", "--format", "tsv", "run.h5", output=str, error=str)
        rows = {line.split("\t")[0]: line.split("\t")[1] for line in out.splitlines()[1:]}
        assert rows.get("write") == "2", out
        assert rows.get("close") == "1", out

    def test_mpi_program(self):
        """with +mpi, iodfg-mpi is installed"""
        if self.spec.satisfies("~mpi"):
            raise SkipTest("iodfg-mpi is built with +mpi only")
        assert os.access(self.prefix.bin.join("iodfg-mpi"), os.X_OK)
