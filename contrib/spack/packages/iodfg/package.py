# SPDX-License-Identifier: MIT
# Spack recipe for iodfg. Use it from this repository (README, "Installing with Spack"):
#   spack repo add contrib/spack
#   spack develop --path "$PWD" iodfg@=main && spack add iodfg@=main && spack install
from spack.package import *


class Iodfg(AutotoolsPackage):
    """I/O Directly-Follows Graphs from system-call traces: turns the strace logs (or Score-P
    OTF2 traces, or CSV event logs) of many processes into one HDF5 event log and a
    Directly-Follows Graph of I/O activities with statistics, with a command line and an
    ncurses terminal UI for login nodes."""

    # iodfg publishes no release tarballs yet: there is no url to fetch, so versions are built
    # from a checkout with `spack develop`. When tarballs (`make dist`) are published, add
    # url = ".../iodfg-0.1.0.tar.gz" and version("0.1.0", sha256="...").
    version("main")

    license("MIT")

    variant("otf2", default=False, description="Read Score-P OTF2 traces (iodfg convert)")
    variant(
        "mpi",
        default=False,
        description="Also build iodfg-mpi, the MPI job over an MPI-enabled HDF5",
    )

    depends_on("c", type="build")
    # a checkout has no configure script: Spack's autoreconf phase makes it
    depends_on("autoconf", type="build", when="@main")
    depends_on("automake", type="build", when="@main")
    depends_on("libtool", type="build", when="@main")
    depends_on("autoconf-archive", type="build")  # AX_PTHREAD, AX_APPEND_COMPILE_FLAGS
    depends_on("pkgconfig", type="build")

    depends_on("ncurses")  # ncursesw, the wide-character library
    depends_on("pcre2")
    depends_on("xxhash")
    # direct chunk I/O (H5Dwrite_chunk, H5Dget_chunk_info_by_coord) needs HDF5 1.10.5
    depends_on("hdf5@1.10.5: ~mpi", when="~mpi")
    depends_on("hdf5@1.10.5: +mpi", when="+mpi")
    depends_on("mpi", when="+mpi")
    depends_on("otf2", when="+otf2")
    depends_on("check@0.10:", type="test")  # libcheck, for the unit tests of `make check`

    def configure_args(self):
        args = self.with_or_without("otf2")
        args += self.with_or_without("mpi")
        return args

    def test_version(self):
        """iodfg --version names the version and the build's options"""
        iodfg = which(self.prefix.bin.iodfg)
        out = iodfg("--version", output=str.split, error=str.split)
        assert "iodfg" in out
        assert "OTF2 input " + ("yes" if self.spec.satisfies("+otf2") else "no") in out

    def test_themes(self):
        """the installed themes are found through the data directory"""
        iodfg = which(self.prefix.bin.iodfg)
        out = iodfg("--list-themes", output=str.split, error=str.split)
        assert "dark" in out
