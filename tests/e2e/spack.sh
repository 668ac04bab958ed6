#!/bin/sh
# The Spack recipe contrib/spack/packages/iodfg/package.py, without Spack: valid Python
# (py_compile); against a stand-in for Spack's directives, the dependencies the issue asks for
# (ncurses, pcre2, hdf5 ~mpi, +mpi pulling hdf5+mpi and mpi, otf2 optional, check for tests)
# and the configure flags of each variant; and its stand-alone tests (`spack test run`) run
# against this build's iodfg. Spack itself runs it as README says (not here: no network).
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
PKG=$IODFG_SRCDIR/contrib/spack/packages/iodfg/package.py
# byte code goes to the temp dir, never into the (possibly read-only) source tree
PYTHONPYCACHEPREFIX="$T/pycache"
export PYTHONPYCACHEPREFIX
check "package.py compiles (py_compile)" "$PY" -m py_compile "$PKG"
check "the repository names its namespace (spack repo add contrib/spack)" \
  grep -qx '  namespace: iodfg' "$IODFG_SRCDIR/contrib/spack/repo.yaml"
mkdir -p "$T/spack"
cat >"$T/spack/package.py" <<'PY'
# A stand-in for spack.package: directives record what the recipe declares; which() runs this
# build's iodfg, so the recipe's test_ methods run as `spack test run` would run them.
import os, subprocess
DECL = {"versions": [], "variants": {}, "depends": [], "license": None}
def version(v, **kw): DECL["versions"].append((v, kw))
def variant(name, default=None, description="", **kw): DECL["variants"][name] = default
def depends_on(spec, type=("build", "link"), when=None): DECL["depends"].append((spec, type, when))
def license(l): DECL["license"] = l
class SkipTest(Exception): pass
def which(path, required=False):
    path = os.environ["IODFG_BIN"] if os.path.basename(path) == "iodfg" else path
    def run(*args, output=None, error=None):
        out = subprocess.run([path, *args], capture_output=True, text=True, check=True).stdout
        return out.split() if output is str.split else out
    return run
class AutotoolsPackage:
    def __init__(self, spec): self.spec = spec
    def with_or_without(self, name):
        return ["--with-" + name if self.spec.satisfies("+" + name) else "--without-" + name]
PY
: >"$T/spack/__init__.py"
cat >"$T/recipe.py" <<'PY'
import importlib.util, os, sys
sys.path.insert(0, sys.argv[2])
import spack.package as sp
spec = importlib.util.spec_from_file_location("recipe", sys.argv[1])
rec = importlib.util.module_from_spec(spec); spec.loader.exec_module(rec)
class Spec:  # the concrete spec: its variants, version and HDF5's version
    def __init__(self, hdf5="", **v): self.v, self.version, self.hdf5 = v, "main", hdf5
    def satisfies(self, s):
        return self.version == s[1:] if s[0] == "@" else self.v[s[1:]] == (s[0] == "+")
    def __getitem__(self, name): return type("Dep", (), {"version": self.hdf5})
class Prefix(str):  # a build tree, whose programs lie where an installation has bin/
    def __getattr__(self, name): return Prefix(self if name == "bin" else os.path.join(self, name))
    def join(self, name): return Prefix(os.path.join(self, name))
def package(**v):
    p = rec.Iodfg(Spec(**v)); p.prefix = Prefix(os.environ["IODFG_BUILDDIR"]); return p
PY
check "the recipe declares what iodfg needs" "$PY" -c '
import sys; exec(open(sys.argv[3]).read())
D = sp.DECL
deps = {(s, w) for s, t, w in D["depends"]}
want = {("ncurses", None), ("pcre2", None), ("xxhash", None), ("zlib-api", None),
        ("hdf5@1.10.5: ~mpi", "~mpi"),
        ("hdf5@1.10.5: +mpi", "+mpi"), ("mpi", "+mpi"), ("otf2", "+otf2"), ("pkgconfig", None),
        ("c", None), ("autoconf", "@main"), ("automake", "@main"), ("autoconf-archive", "@main")}
missing = want - deps
assert not missing, missing
assert any(s.startswith("check") and t == "test" for s, t, w in D["depends"]), "check for tests"
assert D["variants"] == {"otf2": False, "mpi": False}, D["variants"]
assert D["license"] == "MIT"
flags = lambda **v: package(**v).configure_args()
assert flags(otf2=False, mpi=False) == ["--without-otf2", "--without-mpi"]
assert flags(otf2=True, mpi=True) == ["--with-otf2", "--with-mpi"]
' "$PKG" "$T" "$T/recipe.py"
check "the configure flags the recipe passes exist" sh -c \
  "grep -q 'AC_ARG_WITH(\[otf2\]' '$IODFG_SRCDIR/configure.ac' &&
   grep -q 'AC_ARG_WITH(\[mpi\]' '$IODFG_SRCDIR/configure.ac'"

# The stand-alone tests, on this build: its variants and HDF5 version as Spack would know them.
otf2=$("$IODFG_BIN" --version | grep -q 'OTF2 input yes' && echo True || echo False)
mpi=$(test -x "$IODFG_BUILDDIR/iodfg-mpi" && echo True || echo False)
hdf5=$(pkg-config --modversion hdf5-serial 2>/dev/null || pkg-config --modversion hdf5)
cd "$T"
for t in test_version test_themes test_convert_stats test_mpi_program; do
  check "spack test run: $t" "$PY" -c '
import sys; exec(open(sys.argv[3]).read())
p = package(otf2=sys.argv[4] == "True", mpi=sys.argv[5] == "True", hdf5=sys.argv[6])
try:
    getattr(p, sys.argv[7])()
except sp.SkipTest as e:
    print("# skipped:", e)
' "$PKG" "$T" "$T/recipe.py" "$otf2" "$mpi" "$hdf5" "$t"
done
finish
