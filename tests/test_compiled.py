"""The optional mypyc build: the one module list, what `--version` says, and compiled = plain Python.

The compiled comparisons run the installed package (tests/installed.py) and skip, with
the reason shown, where it was installed without a C compiler.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from installed import REPO, mypyc_in_child, needs_mypyc, run_installed, which_ran

from mahjong_calc import compiled

RECORDS = [
    {"id": 1, "hand": "123456m13m99p555p2m", "self_draw": True},
    {"id": 2, "variant": "wuhu525", "hand": "11122233344455m", "discarder": "next", "dealer": True},
    {"id": 3, "hand": "1112345678999m9m", "discarder": "opposite"},
    {"id": 4, "hand": "123m456p789s1122z1z", "variant": "chizhou", "self_draw": True},
    {"id": 5, "variant": "chizhou", "hand": "11223344556677m", "discarder": "previous"},
    {"id": 6, "variant": "pujiang", "hand": "111m222p333s444s3m7z", "wild": "3m", "piao": 2},
    {"id": 7, "variant": "pujiang", "hand": "111m222p333s77z3m3m4m", "wild": "3m", "self_draw": True},
    {"id": 8, "variant": "pujiang", "hand": "1112223334445m5m", "melds": ["999p"], "discarder": "next"},
    {"id": 9, "hand": "123456m13m99p55p2m"},
    {"id": 10, "hand": "123456m13m99p555p2x"},
]


def test_the_source_tree_runs_no_compiled_module() -> None:
    # Python started in the checkout imports it (plain `pytest` may import the installed copy
    # instead), and mypyc's extensions are never there: editable installs compile nothing
    code = "import json, mahjong_calc, mahjong_calc.compiled as c; print(json.dumps([mahjong_calc.__path__[0], c.compiled_modules(), c.status()]))"
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    package, modules, status = json.loads(done.stdout)
    assert Path(package) == REPO / "mahjong_calc"
    assert modules == []
    assert status.startswith("compiled: off (")


def test_every_listed_module_exists_and_is_plain_python() -> None:
    for name in compiled.MODULES:
        stem = REPO / Path(*name.split("."))
        assert stem.with_suffix(".py").is_file() or (stem / "__init__.py").is_file(), name


@pytest.mark.parametrize("listed", ['("mahjong_calc.core.tiles", "mahjong_calc.no_such_module")', '("mahjong_calc.tils",)'])
def test_setup_refuses_a_listed_module_that_does_not_exist(tmp_path: Path, listed: str) -> None:
    pytest.importorskip("setuptools", reason="setuptools is not installed in this environment")
    (tmp_path / "mahjong_calc" / "core").mkdir(parents=True)
    shutil.copy(REPO / "setup.py", tmp_path / "setup.py")
    shutil.copy(REPO / "mahjong_calc" / "core" / "tiles.py", tmp_path / "mahjong_calc" / "core" / "tiles.py")
    (tmp_path / "mahjong_calc" / "compiled.py").write_text(f"MODULES: tuple[str, ...] = {listed}\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "setup.py", "--name"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode != 0
    assert "lists modules with no source file" in done.stderr and listed.split('"')[-2] in done.stderr


def test_version_says_which_modules_are_compiled() -> None:
    shown = run_installed(["--version"])
    assert shown.returncode == 0, shown.stderr
    line = shown.stdout.splitlines()[1]
    names = mypyc_in_child()
    if names:
        assert line == "compiled: " + ", ".join(names), shown.stdout
    else:
        assert line.startswith("compiled: off (not built: "), shown.stdout
    off = run_installed(["--version"], env={compiled.PURE_ENV: "1"})
    assert off.stdout.splitlines()[1] == f"compiled: off ({compiled.PURE_ENV} is set)", off.stdout


@needs_mypyc
def test_the_whole_list_is_compiled_or_none_of_it() -> None:
    assert mypyc_in_child() == compiled.MODULES, which_ran()


@needs_mypyc
def test_compiled_and_plain_python_print_the_same_bytes(tmp_path: Path) -> None:
    source = tmp_path / "records.jsonl"
    source.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in RECORDS), encoding="utf-8")
    for args in (["batch", str(source), "--jobs", "1"], ["score", "111m222p333s77z3m3m4m", "-v", "pujiang", "--wild", "3m", "--json"]):
        fast = run_installed(args, text=False)
        slow = run_installed(args, env={compiled.PURE_ENV: "1"}, text=False)
        assert (fast.returncode, fast.stdout, fast.stderr) == (slow.returncode, slow.stdout, slow.stderr), args
    assert fast.returncode == 0
