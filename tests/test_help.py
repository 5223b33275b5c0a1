"""Help conventions: `-h`, completion, a bare `mjcalc`, and no Python types in any help text."""

from __future__ import annotations

import re

import pytest
import typer
from installed import run_installed
from typer.testing import CliRunner

from mahjong_calc.cli.app import COMMANDS as TABLE
from mahjong_calc.cli.app import app
from mahjong_calc.cli.game import GAME_COMMANDS

runner = CliRunner()
_ROOT = typer.main.get_command(app)
COMMANDS = sorted(_ROOT.list_commands(typer.Context(_ROOT)))  # type: ignore[attr-defined]
GAME = [["game", name] for name in GAME_COMMANDS]
PYTHON_TYPES = re.compile(r"<(?:list|int|str|float|bool|path|dict|tuple)\b[^>]*>|\{hand\}|<int range>|<[a-z_]+\[")


@pytest.mark.parametrize("command", [[]] + [[name] for name in COMMANDS] + GAME)
def test_help_shows_no_python_types(command: list[str]) -> None:
    out = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "100"})
    assert out.exit_code == 0, out.output
    assert not PYTHON_TYPES.search(out.output), PYTHON_TYPES.findall(out.output)


@pytest.mark.parametrize("command", [[]] + [[name] for name in COMMANDS] + GAME)
def test_dash_h_is_help(command: list[str]) -> None:
    long = runner.invoke(app, [*command, "--help"])
    short = runner.invoke(app, [*command, "-h"])
    assert short.exit_code == 0 and short.output == long.output


@pytest.mark.parametrize("command", [[name] for name in COMMANDS] + GAME)
def test_every_command_has_help_with_an_example(command: list[str]) -> None:
    out = runner.invoke(app, [*command, "--help"])
    assert "Example:" in out.output and f"mjcalc {' '.join(command)}" in out.output.split("Example:")[1]


def test_the_command_table_is_what_help_lists() -> None:
    assert sorted(TABLE) == COMMANDS and "game" in COMMANDS
    listed = runner.invoke(app, ["game"])
    assert listed.exit_code == 0 and "Commands:" in listed.output
    assert all(f"  {name} " in listed.output for name in GAME_COMMANDS)


def test_a_mistyped_command_gets_a_suggestion() -> None:
    proc = run_installed(["scor", "123m", "--json"])
    assert proc.returncode == 2
    assert "No such command 'scor'. Did you mean 'score'?" in proc.stderr
    assert '"code": "usage_error"' in proc.stdout


def test_score_help_explains_the_tile_notation() -> None:
    out = runner.invoke(app, ["score", "--help"], env={"COLUMNS": "100"})
    examples = re.findall(r"mjcalc score \S+", out.output)
    assert len(set(examples)) >= 3, examples
    assert "万" in out.output and "m" in out.output


def test_completion_is_offered() -> None:
    out = runner.invoke(app, ["--help"])
    assert "--install-completion" in out.output and "--show-completion" in out.output
    shown = run_installed(["--show-completion", "bash"])
    assert shown.returncode == 0 and "complete" in shown.stdout and "mjcalc" in shown.stdout


def test_bare_mjcalc_lists_the_commands_without_an_error() -> None:
    proc = run_installed([])
    assert proc.returncode in (0, 2)
    assert "error" not in proc.stderr
    for name in COMMANDS:
        assert name in proc.stdout
