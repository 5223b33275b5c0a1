"""Start-up: a command imports its own module and not the others' (`cli.app.COMMANDS` is lazy).

What the time is, `bench/run.py` measures; here only what is imported, which can be checked.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from installed import run_installed

# module -> the commands that need it
OTHERS = {
    "mahjong_calc.cli.score": ("score", "variants", "batch"),
    "mahjong_calc.cli.tables": ("waits", "options"),
    "mahjong_calc.cli.game": ("game",),
    "mahjong_calc.cli.live": ("game",),
    "mahjong_calc.cli.live_hand": ("game",),
    "mahjong_calc.cli.serve": ("serve",),
    "mahjong_calc.batch": ("batch",),
    "mahjong_calc.game": ("game",),
}


def imported(args: list[str], tmp_path: Path) -> set[str]:
    """The modules the installed `mjcalc ARGS` imported (from PYTHONPROFILEIMPORTTIME's report)."""
    proc = run_installed(args, env={"PYTHONPROFILEIMPORTTIME": "1", "MJCALC_DB": str(tmp_path / "games.sqlite3")})
    assert proc.returncode == 0, proc.stderr[-2000:]
    return {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}


@pytest.mark.parametrize(("command", "args"), [
    ("score", ["score", "123456m13m99p555p2m", "-s", "--json"]),
    ("waits", ["waits", "123456m13m99p555p", "--json"]),
    ("game", ["game", "list", "--json"]),
    ("variants", ["variants", "--json"]),
])
def test_a_command_imports_no_other_commands_module(command: str, args: list[str], tmp_path: Path) -> None:
    modules = imported(args, tmp_path)
    assert "mahjong_calc.cli.app" in modules
    unwanted = sorted(m for m, users in OTHERS.items() if command not in users and m in modules)
    assert not unwanted, f"`mjcalc {' '.join(args)}` imported {unwanted}"


def test_score_imports_neither_the_settler_nor_sqlite_nor_the_other_scorers(tmp_path: Path) -> None:
    modules = imported(["score", "123456m13m99p555p2m", "-s", "--json"], tmp_path)
    assert "mahjong_calc.variants.wuhu.score" in modules
    unwanted = {"sqlite3", "mahjong_calc.live.store", "mahjong_calc.variants.wuhu.liability", "mahjong_calc.variants.chizhou.score",
                "mahjong_calc.variants.pujiang.score", "mahjong_calc.variants.chizhou", "mahjong_calc.variants.pujiang",
                "mahjong_calc.variants.common.settlement", "rich"}
    assert not unwanted & modules


def test_settling_and_stats_of_json_lines_import_neither_batch_nor_yaml_nor_rich(tmp_path: Path) -> None:
    """(Pydantic they do import: Typer coerces every command-line value through it.)"""
    game = tmp_path / "game.jsonl"
    game.write_text('{"variant": "wuhu315", "players": ["A", "B", "C", "D"], "dealer": "A"}\n'
                    '{"winner": "A", "hand": "123m456m789m123p11s", "self_draw": true}\n', encoding="utf-8")
    for args in (["game", "settle", str(game), "--json"], ["stats", str(game), "--json"]):
        modules = imported(args, tmp_path)
        assert "mahjong_calc.game.engine" in modules
        unwanted = sorted(m for m in modules if m.split(".")[0] in ("yaml", "rich") or m.startswith("mahjong_calc.batch"))
        assert not unwanted, f"`mjcalc {' '.join(args)}` imported {unwanted}"
