"""With `zh`, no screen shows a tile code the user did not type (the hand line at 40 columns, 和张,
game history, the 方式 of a refused hand), every `--help` is Chinese, and `--lang xx` answers in
the language chosen with the choices."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer
from test_words import HELP_CODE, TICKED, english_left
from typer.testing import CliRunner

from mahjong_calc.cli.app import app
from mahjong_calc.core import words
from mahjong_calc.generate import command_paths

runner = CliRunner()
CODE = re.compile(r"[0-9]+[mpsz]\b")


@pytest.fixture(autouse=True)
def chinese(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MJCALC_DB", str(tmp_path / "games.sqlite3"))
    for var in ("MJCALC_LANG", "LC_ALL", "LC_MESSAGES", "COLUMNS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    words.set_language(None)


SCREENS = [
    ["score", "一万三万四五六万六七八万幺筒幺筒五五五筒两万", "-s"],
    ["score", "13m456m678m11p555p2m", "-s"],  # typed in codes: the screen says them as players do
    ["score", "13m456m678m11p555p2m", "-s", "--explain"],
    ["score", "一万二万三万四五六万七八九万幺筒幺筒", "--meld", "五五五筒@对家", "-f", "opposite"],
    ["score", "111m222p333s77z3m3m4m", "--variant", "pujiang", "--wild", "3m"],
    ["score", "55m", "--meld", "1111z", "--meld", "123m", "--meld", "456m", "--meld", "789m", "--variant", "chizhou", "--discarder",
     "opposite"],
    ["waits", "一万三万四五六万六七八万幺筒幺筒五五五筒"],
    ["waits", "1112345678999m"],
    ["advise", "一二三四五六七万二三四筒五六筒九九条"],
    ["advise", "1234567m234p56p99s"],
]


@pytest.mark.parametrize("width", ["40", "80", "120"])
@pytest.mark.parametrize("args", SCREENS, ids=[" ".join(a[:2]) for a in SCREENS])
def test_a_chinese_screen_shows_no_code_the_user_did_not_type(args: list[str], width: str) -> None:
    for lang in (["--lang", "zh"], []):
        env = {"COLUMNS": width, **({} if lang else {"MJCALC_LANG": "zh"})}
        done = runner.invoke(app, [*args, *lang], env=env)
        assert done.exit_code in (0, 1), done.stderr
        assert not CODE.findall(done.stdout), done.stdout  # no code at all, even where the hand was typed in codes


def test_the_hand_line_and_the_winning_tile_at_40_columns() -> None:
    done = runner.invoke(app, ["score", "13m456m678m11p555p2m", "-s", "--lang", "zh"], env={"COLUMNS": "40"})
    lines = done.stdout.splitlines()
    assert any(line.strip().startswith("手牌  一二三四五六六七八万") for line in lines), done.stdout
    assert any(line.strip() == "和张  二万" for line in lines), done.stdout
    assert not CODE.findall(done.stdout)


@pytest.fixture
def game() -> None:
    for args in (["new", "--variant", "wuhu315", "--players", "王,李,张,赵", "--dealer", "王"],
                 ["add", "--winner", "李", "--discarder", "王", "123456m13m99p555p2m"],
                 ["add", "--winner", "张", "--self-draw", "--meld", "555s@李", "123456789m11p"]):
        assert runner.invoke(app, ["game", *args]).exit_code == 0, args


@pytest.mark.parametrize("command", [["history"], ["show"], ["list"], ["undo"]])
def test_live_screens_say_the_tiles(game: None, command: list[str]) -> None:
    for width in ("40", "120"):
        done = runner.invoke(app, ["game", *command, "--lang", "zh"], env={"COLUMNS": width})
        assert done.exit_code == 0 and not CODE.findall(done.stdout), done.stdout
    history = runner.invoke(app, ["game", "history", "--lang", "zh"]).stdout
    assert "一二三四五六七八九万 一一筒 五五五条@李" in history


def test_a_refused_hand_is_said_in_chinese_in_the_how_column(tmp_path: Path) -> None:
    log = tmp_path / "log.csv"
    log.write_text('game,variant,players,dealer,winner,discarder,self_draw,hand\n1,wuhu315,"A,B,C,D",A,B,,true,123456m13m99p555p2m\n'
                   "1,,,,C,,true,12x\n", encoding="utf-8")
    for width in ("40", "200"):
        done = runner.invoke(app, ["game", "settle", str(log), "--lang", "zh"], env={"COLUMNS": width})
        assert "牌里有无法识别的字符" in done.stdout and "[unknown_character]" not in done.stdout, done.stdout
    assert "[unknown_character]" in runner.invoke(app, ["game", "settle", str(log), "--lang", "en"]).stdout


ROOT = typer.main.get_command(app)
PATHS = [(), *command_paths(ROOT)]  # type: ignore[arg-type]


EXAMPLE = re.compile(r"^(?:\s*(?:mjcalc|echo|printf) |用法: ).*$", re.M)


def prose(text: str) -> list[str]:
    """The English words of a help that are not code (options, metavars, example lines, names)."""
    return english_left(HELP_CODE.sub("", TICKED.sub("", EXAMPLE.sub("", text))))


@pytest.mark.parametrize("path", PATHS, ids=[" ".join(p) or "mjcalc" for p in PATHS])
def test_every_help_is_chinese(path: tuple[str, ...]) -> None:
    asked = [runner.invoke(app, [*path, "--help"], env={"MJCALC_LANG": "zh", "COLUMNS": "80"})]
    if path and path[0] not in ("game", "site"):  # a group's --lang is its commands'
        asked.append(runner.invoke(app, [*path, "--help", "--lang", "zh"], env={"COLUMNS": "80"}))
        asked.append(runner.invoke(app, [*path, "--lang", "zh", "-h"], env={"COLUMNS": "80"}))
    for done in asked:
        assert done.exit_code == 0
        assert done.stdout.startswith("用法: mjcalc"), done.stdout[:200]
        assert not {"Usage:", "Options:", "Arguments:", "Commands:", "Show this message"} & {w for w in done.stdout.split("\n") for w in (w.strip(),)}
        assert "Show this message" not in done.stdout and "[required]" not in done.stdout
        assert not prose(done.stdout), (prose(done.stdout), done.stdout)
        from mahjong_calc.present.layout import cells

        assert max(cells(line) for line in done.stdout.splitlines()) <= 80


def test_help_without_a_language_is_clicks_english() -> None:
    done = runner.invoke(app, ["score", "--help"], env={"COLUMNS": "80"})
    assert done.stdout.startswith("Usage: mjcalc score [OPTIONS] HAND...") and "Show this message and exit." in done.stdout


@pytest.mark.parametrize(("env", "words_"), [
    ({}, ["Invalid value for '--lang' / '-l': 'xx' is not one of 'zh', 'en'"]),
    ({"MJCALC_LANG": "zh"}, ["`'--lang' / '-l'` 的值不对: 'xx' 不是 'zh', 'en' 之一", "见 `mjcalc score --help`"]),
])
def test_a_language_mjcalc_does_not_speak_names_the_choices(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                                          env: dict[str, str], words_: list[str]) -> None:
    from mahjong_calc.cli.app import main

    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(SystemExit) as stopped:
        main(["score", "13m456m678m11p555p2m", "--lang", "xx"])
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and all(w in err for w in words_), err
    assert "Value error" not in err
