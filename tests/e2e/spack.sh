#!/bin/sh
# The Spack recipe contrib/spack/packages/iodfg/package.py: valid Python (py_compile), and, run
# against a stand-in for Spack's directives, the dependencies the issue asks for (ncurses,
# pcre2, hdf5 ~mpi, +mpi pulling hdf5+mpi and mpi, otf2 optional, check for tests) and the
# configure flags of each variant. Spack itself is not needed.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
PKG=$IODFG_SRCDIR/contrib/spack/packages/iodfg/package.py
# byte code goes to the temp dir, never into the (possibly read-only) source tree
PYTHONPYCACHEPREFIX="$T/pycache"
export PYTHONPYCACHEPREFIX
check "package.py compiles (py_compile)" "$PY" -m py_compile "$PKG"
mkdir -p "$T/spack"
cat >"$T/spack/package.py" <<'PY'
# A stand-in for spack.package: directives record what the recipe declares.
DECL = {"versions": [], "variants": {}, "depends": [], "license": None}
def version(v, **kw): DECL["versions"].append((v, kw))
def variant(name, default=None, description="", **kw): DECL["variants"][name] = default
def depends_on(spec, type=("build", "link"), when=None): DECL["depends"].append((spec, type, when))
def license(l): DECL["license"] = l
def which(*a): raise AssertionError("smoke tests need Spack")
class AutotoolsPackage:
    def __init__(self, variants): self.variants = variants
    def with_or_without(self, name):
        return ["--with-" + name if self.variants[name] else "--without-" + name]
PY
: >"$T/spack/__init__.py"
check "the recipe declares what iodfg needs" "$PY" -c '
import importlib.util, sys
sys.path.insert(0, sys.argv[2])
import spack.package as sp
spec = importlib.util.spec_from_file_location("recipe", sys.argv[1])
rec = importlib.util.module_from_spec(spec); spec.loader.exec_module(rec)
D = sp.DECL
deps = {(s, w) for s, t, w in D["depends"]}
want = {("ncurses", None), ("pcre2", None), ("xxhash", None), ("hdf5@1.10.5: ~mpi", "~mpi"),
        ("hdf5@1.10.5: +mpi", "+mpi"), ("mpi", "+mpi"), ("otf2", "+otf2"), ("pkgconfig", None)}
missing = want - deps
assert not missing, missing
assert any(s.startswith("check") and t == "test" for s, t, w in D["depends"]), "check for tests"
assert D["variants"] == {"otf2": False, "mpi": False}, D["variants"]
assert D["license"] == "MIT"
flags = lambda **v: rec.Iodfg(v).configure_args()
assert flags(otf2=False, mpi=False) == ["--without-otf2", "--without-mpi"]
assert flags(otf2=True, mpi=True) == ["--with-otf2", "--with-mpi"]
' "$PKG" "$T"
check "the configure flags the recipe passes exist" sh -c \
  "grep -q 'AC_ARG_WITH(\[otf2\]' '$IODFG_SRCDIR/configure.ac'"
finish
