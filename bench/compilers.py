"""mypyc against Cython's pure-Python mode on one kernel: the per-suit search of core/suits.py.

    .venv/bin/pip install cython      # Cython is optional: without it only Python and mypyc are timed
    .venv/bin/python bench/compilers.py [--runs 5]

The kernel is the search a cold cache pays for on a batch of distinct hands: every way to
cut one suit's counts into pungs and chows (`_cut_all`), whether a suit is sets only or a
pair plus sets (`_fits`, `_fits_with_pair`, `_ok_now`), and the tiles that complete a suit
(`_searched_completions`; the package reads a whole suit from its tables of whole shapes, and
searches only a suit too large for them). Their source is read from mahjong_calc/core/suits.py itself (one
source: nothing is copied into the repository), its memo emptied before each run, into one
module in a temporary directory, which is then

- run as plain Python,
- compiled by mypyc (as setup.py compiles the package: `mypycify`, opt level 3),
- compiled by Cython from the same .py (pure-Python mode: the file stays valid Python; its
  `int`/`list` hints are Python objects to Cython), and by Cython again with an augmenting
  .pxd beside it that declares the loop variables and arguments as C ints (`cython.int`),
  still without a change to the .py.

Each times the same workload: every 7th count vector of one number suit (0-4 of each of its
9 tiles, 2 to 14 tiles) searched once per run, the best of --runs. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import os
import subprocess
import sys
import tempfile
import textwrap
from itertools import product
from pathlib import Path

HERE = Path(__file__).resolve().parent
FUNCTIONS = ("tiles_in", "tiles_held", "_fits", "_fits_with_pair", "_weight", "_cut_all", "_ok_now", "_searched_completions")
HEADER = '''"""The per-suit search of mahjong_calc/core/suits.py, without its memo (bench/compilers.py)."""

from __future__ import annotations

PUNG_CODE = 0
CHOW_CODE = 1
'''
PXD = '''
import cython

cdef int tiles_in(tuple counts, int start, int stop)
cdef int tiles_held(list counts, int start, int stop)
cdef bint _fits(list c, int n, bint suited)
cdef int _weight(list c)
cdef bint _fits_with_pair(list c, int n, bint suited, int weight)
cdef _cut_all(list c, int i, int n, bint suited, int base, list prefix, list out)
cdef bint _ok_now(list c, bint honour)
cpdef tuple _searched_completions(tuple part, bint honour)
'''
WORKLOAD = '''
def workload(vectors: list[tuple[int, ...]]) -> int:
    """Every vector's cuts and completions, as a cold cache pays for them."""
    found = 0
    for part in vectors:
        work = list(part)
        if sum(part) % 3 == 0:
            out: list[tuple[int, ...]] = []
            _cut_all(work, 0, 9, True, 0, [], out)
            found += len(out)
        found += _ok_now(work, False) + len(_searched_completions(part, False))
    return found
'''


def kernel_source() -> str:
    """The functions' source from core/suits.py (and the tile counts it uses, core/counting.py)."""
    from mahjong_calc.core import suits

    parts = [HEADER]
    for name in FUNCTIONS:
        source = textwrap.dedent(inspect.getsource(getattr(suits, name)))
        lines = [line for line in source.splitlines() if not line.startswith("@")]
        parts.append("\n".join(lines) + "\n")
    parts.append(WORKLOAD)
    return "\n\n".join(parts)


SAMPLE = 7  # every 7th vector: a cold cache's share of the search, in seconds rather than a minute


def vectors() -> list[tuple[int, ...]]:
    return [v for v in product(range(5), repeat=9) if 2 <= sum(v) <= 14][::SAMPLE]


def build(kind: str, src: Path, out: Path) -> str | None:
    """Compile kernel.py in `out` (a copy of `src`) with mypyc or Cython; None, or why not."""
    out.mkdir()
    (out / "suitkernel.py").write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    if kind == "cython+pxd":
        (out / "suitkernel.pxd").write_text(PXD, encoding="utf-8")
    if kind == "mypyc":
        script = "from setuptools import setup\nfrom mypyc.build import mypycify\nsetup(ext_modules=mypycify(['suitkernel.py'], opt_level='3'))\n"
    else:  # with the .pxd, its declarations stand in for the .py's Python hints
        directives = {"binding": False, "annotation_typing": kind != "cython+pxd"}
        script = ("from setuptools import setup\nfrom Cython.Build import cythonize\n"
                  f"setup(ext_modules=cythonize(['suitkernel.py'], language_level=3, compiler_directives={directives!r}))\n")
    (out / "setup.py").write_text(script, encoding="utf-8")
    done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=out, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return (done.stderr.strip().splitlines() or ["failed"])[-1]
    (out / "suitkernel.py").unlink()  # the extension, not the .py, must be what is timed
    return None


def time_in_child(directory: Path, runs: int) -> tuple[float, str]:
    """(best seconds of the workload, the module's file) in a fresh process importing `directory`'s suitkernel."""
    probe = (
        "import sys, time; sys.path.insert(0, sys.argv[1]); import suitkernel as k; from itertools import product\n"
        f"v = [x for x in product(range(5), repeat=9) if 2 <= sum(x) <= 14][::{SAMPLE}]\n"
        "best = min((lambda t: (k.workload(v), time.perf_counter() - t)[1])(time.perf_counter()) for _ in range(int(sys.argv[2])))\n"
        "print(best, k.__file__)"
    )
    out = subprocess.run([sys.executable, "-c", probe, str(directory), str(runs)], capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), out[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    n = len(vectors())
    has_cython = importlib.util.find_spec("Cython") is not None
    print(f"the per-suit search of core/suits.py over {n:,} suit count vectors, best of {args.runs}; "
          f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "suitkernel.py"
        src.write_text(kernel_source(), encoding="utf-8")
        plain = Path(tmp) / "python"
        plain.mkdir()
        (plain / "suitkernel.py").write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
        base, _ = time_in_child(plain, args.runs)
        print(f"  {'plain Python':14} {base * 1e3:8.1f} ms  {base / n * 1e6:6.2f} µs a vector")
        kinds = ["mypyc"] + (["cython", "cython+pxd"] if has_cython else [])
        for kind in kinds:
            problem = build(kind, src, Path(tmp) / kind.replace("+", "_"))
            if problem is not None:
                print(f"  {kind:14} not built: {problem}")
                continue
            took, module = time_in_child(Path(tmp) / kind.replace("+", "_"), args.runs)
            print(f"  {kind:14} {took * 1e3:8.1f} ms  {took / n * 1e6:6.2f} µs a vector  {base / took:5.2f}x Python  ({Path(module).name})")
        if not has_cython:
            print("  Cython is not installed: pip install cython to time it")


if __name__ == "__main__":
    main()
