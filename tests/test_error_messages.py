"""Every error code has a Chinese and an English general message (core/errors.MESSAGES); `--lang zh`
writes the error's own message in Chinese alone in the CLI's stderr line and JSON `message`; codes
never change."""

from __future__ import annotations

import json
import re

import pytest
from test_error_codes import codes_in_code, codes_in_doc
from typer.testing import CliRunner

from mahjong_calc.cli.app import app
from mahjong_calc.core.errors import MESSAGES

HAN = re.compile(r"[\u4e00-\u9fff]")


def test_every_code_has_both_messages() -> None:
    literal, _ = codes_in_code()
    codes = literal | codes_in_doc()
    missing = sorted(codes - MESSAGES.keys())
    assert not missing, f"add to MESSAGES in core/errors.py: {missing}"
    stale = sorted(MESSAGES.keys() - codes)
    assert not stale, f"MESSAGES has codes nothing emits and docs/errors.md does not list: {stale}"
    for code, (zh, en) in MESSAGES.items():
        assert HAN.search(zh), (code, zh)
        assert en.strip() and en.isascii(), (code, en)  # in English, every word English


@pytest.mark.parametrize(("args", "code"), [
    (["score", "12x"], "unknown_character"),
    (["score", "123m"], "wrong_tile_count"),
    (["waits", "123456m13m99p555p", "--variant", "nope"], "unknown_variant"),
    (["game", "settle", "/no/such/game.yaml"], "game_not_found"),
])
def test_lang_zh_gives_chinese_messages_and_the_same_codes(runner: CliRunner, args: list[str], code: str) -> None:
    plain = runner.invoke(app, [*args, "--json"])
    en = runner.invoke(app, [*args, "--json", "--lang", "en"])
    zh = runner.invoke(app, [*args, "--json", "--lang", "zh"])
    assert plain.exit_code == en.exit_code == zh.exit_code == 2
    assert plain.stdout == en.stdout and plain.stderr == en.stderr  # English is the default, as it was
    error = json.loads(zh.stdout)["error"]
    english = json.loads(en.stdout)["error"]
    assert error["code"] == english["code"] == code
    assert HAN.search(error["message"]) and not HAN.search(english["message"]), (error, english)
    assert english["message"] not in error["message"]  # no English detail after the Chinese
    assert f"[{code}]: {error['message']}" in zh.stderr
    again = runner.invoke(app, [*args, "--json"])  # a later command without --lang: English again
    assert again.stdout == plain.stdout


def test_live_game_errors_in_chinese(runner: CliRunner, tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "g.db")
    assert runner.invoke(app, ["game", "new", "--players", "王,李,张,赵", "--db", db]).exit_code == 0
    done = runner.invoke(app, ["game", "delete", "3", "--db", db, "--lang", "zh"])
    assert done.exit_code == 2 and "[unknown_hand]: " in done.stderr and HAN.search(done.stderr.split("[unknown_hand]: ")[1])
    done = runner.invoke(app, ["game", "redo", "--db", db, "-l", "zh", "--json"])
    message = json.loads(done.stdout)["error"]["message"]
    assert HAN.search(message) and not re.search("[A-Za-z]{3}", message), message


def test_english_game_tables_have_english_labels(runner: CliRunner) -> None:
    """In English the chips column and the liability lines are English: no 子, no internal keys."""
    from pathlib import Path

    from mahjong_calc.variants.common.settlement import LABELS

    examples = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.yaml"))
    games = [p for p in examples if "players:" in p.read_text(encoding="utf-8")]
    assert games
    seen_liability = False
    for path in games:
        done = runner.invoke(app, ["game", "settle", str(path), "--lang", "en"])
        assert done.exit_code in (0, 1), (path, done.stderr)
        assert "子" not in done.stdout, path
        for code, (zh, en) in LABELS.items():
            assert code not in done.stdout and zh not in done.stdout, (path, code)
            seen_liability = seen_liability or en.split(":")[0] in done.stdout
    assert seen_liability


def test_every_lang_option_sets_the_message_language() -> None:
    """Each command's --lang is also the language of its error messages (options.lang_given)."""
    import typer

    from mahjong_calc.cli.app import COMMANDS
    from mahjong_calc.cli.game import GAME_COMMANDS
    from mahjong_calc.cli.options import lang_given

    group = typer.main.get_command(app)
    ctx = group.make_context("mjcalc", [], resilient_parsing=True)
    seen = 0
    for name in COMMANDS:
        command = group.get_command(ctx, name)  # type: ignore[attr-defined]
        subs = [command.get_command(ctx, n) for n in GAME_COMMANDS] if name == "game" else [command]
        for sub in subs:
            for param in sub.params:
                if "--lang" in getattr(param, "opts", ()):
                    assert param.callback is not None and param.callback.__name__ == lang_given.__name__, (name, sub.name)
                    seen += 1
    assert seen >= 8
