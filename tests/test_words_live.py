"""The live game's lines and the batch summary in one language alone: with `--lang zh` no English
word (no run of three Latin letters outside what the user typed and the error codes), with
`--lang en` no Chinese outside the players' names; with no language chosen, the Chinese lines
(the game commands' default) and the English summary as they always were."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_words_screens import chinese_left, english_in
from typer.testing import CliRunner

from mahjong_calc.cli.app import app

PLAYERS = ["王", "李", "张", "赵"]
# (variant, the `game add` lines of a session: a discard (or 抢杠) win, a self-draw, another win)
SESSIONS = {
    "wuhu315": [["--winner", "李", "--discarder", "王", "123456m13m99p555p2m"],
                ["--winner", "张", "--self-draw", "--meld", "555s@李", "123456789m11p"],
                ["--winner", "赵", "--discarder", "张", "11223344556677m"]],
    "chizhou": [["--winner", "赵", "--discarder", "张", "11223344556677m"],
                ["--winner", "李", "--self-draw", "111m333m555m777m99m"],
                ["--winner", "张", "--discarder", "王", "123m456m789m234m55m"]],
    "pujiang": [["--winner", "李", "--self-draw", "111m222p333s456m77z"],
                ["--winner", "张", "--robbing-kong", "--discarder", "王", "111m222p456s77z7s8s9s"],
                ["--winner", "赵", "--self-draw", "111m222p333s456m77z"]],
}


def _session(runner: CliRunner, db: Path, variant: str, lang: list[str]) -> tuple[str, list[str]]:
    """Every line a scripted live session prints (game new, add ×3, a drawn hand, edit, delete,
    undo, redo, history, list, show, and a refused hand), and what the user typed."""
    typed: list[str] = [variant]
    out: list[str] = []

    def run(*args: str, status: int = 0) -> None:
        typed.extend(a for a in args if not a.startswith("-"))
        result = runner.invoke(app, ["game", *args, "--db", str(db), *lang], env={"COLUMNS": "120"})
        assert result.exit_code == status, (args, result.output)
        out.append(result.output)

    run("new", "--variant", variant, "--players", ",".join(PLAYERS), "--dealer", "王")
    for hand in SESSIONS[variant]:
        run("add", *hand)
    run("add", "--draw")
    run("add", "--winner", "赵", "--self-draw", "1122334455667x", status=2)
    run("edit", "1", *SESSIONS[variant][1])
    run("delete", "2")
    run("undo")
    run("redo")
    run("undo")
    for command in ("history", "list", "show"):
        run(command)
    return "\n".join(out), typed


@pytest.mark.parametrize("variant", sorted(SESSIONS))
def test_a_live_session_in_one_language(runner: CliRunner, tmp_path: Path, variant: str) -> None:
    zh, typed = _session(runner, tmp_path / "zh.db", variant, ["--lang", "zh"])
    assert "局" in zh and english_in(zh, typed) == [], zh
    en, _ = _session(runner, tmp_path / "en.db", variant, ["--lang", "en"])
    assert "hand 1" in en and chinese_left(en, PLAYERS) == [], en


def test_with_no_language_the_live_lines_stay_chinese(runner: CliRunner, tmp_path: Path) -> None:
    plain, _ = _session(runner, tmp_path / "g.db", "wuhu315", [])
    for line in ("第 1 局: 李 和, 王 点炮, 番 ", "第 1 局: 张 和, 自摸, 番 ", "已删除第 2 局", "已撤销第 3 局", "已恢复第 3 局", "3 局后积分:",
                 "   子 ", "记入第 1 局: 李 和, 王 点炮: 123456m13m99p555p2m", "修改第 1 局为: 张 和, 自摸: 123456789m11p 555s@李",
                 "(2 局)", "第 4 局: 流局"):
        assert line in plain, (line, plain)
    en, _ = _session(runner, tmp_path / "en.db", "wuhu315", ["--lang", "en"])
    for line in ("hand 1: 李 wins, discard of 王, value ", "hand 1: 张 wins, self-draw, value ", "removed hand 2", "took back hand 3",
                 "put back hand 3", "standings after 3 hands:", "   chips ", "hand 1 entered: 李 wins, discard of 王: 123456m13m99p555p2m",
                 "hand 1 changed to: 张 wins, self-draw: 123456789m11p 555s@李", "(2 hands)", "hand 4: drawn"):
        assert line in en, (line, en)


RECORDS = [{"id": 1, "hand": "123456m13m99p555p2m", "self_draw": True}, {"id": 2, "hand": "11223344556677m"},
           {"id": 3, "hand": "1122x"}, {"id": 4, "hand": "111m333m555m777m99m", "variant": "chizhou", "self_draw": True},
           {"id": 5, "hand": "12m"}, {"id": 6, "hand": "111m222p333s456m77z", "variant": "pujiang", "self_draw": True}]


def _summary(runner: CliRunner, tmp_path: Path, lang: list[str]) -> str:
    path = tmp_path / "records.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in RECORDS), encoding="utf-8")
    result = runner.invoke(app, ["batch", str(path), "-o", "summary", *lang], env={"COLUMNS": "100"})
    assert result.exit_code == 1, result.output  # two records are errors
    return result.output


def test_the_batch_summary_in_one_language(runner: CliRunner, tmp_path: Path) -> None:
    codes = ["unknown_character", "wrong_tile_count"]  # codes are the same in every language
    zh = _summary(runner, tmp_path, ["--lang", "zh"])
    assert all(code in zh for code in codes) and "芜湖麻将 315" in zh and "池州麻将" in zh and "清一色" in zh, zh
    assert english_in(zh, [*codes, "1122x"]) == [], zh
    en = _summary(runner, tmp_path, ["--lang", "en"])
    assert "pure one suit" in en and "chizhou" in en and chinese_left(en, []) == [], en


def test_with_no_language_the_batch_summary_is_english_with_both_pattern_names(runner: CliRunner, tmp_path: Path) -> None:
    plain = _summary(runner, tmp_path, [])
    assert "mjcalc batch" in plain and "| pattern" in plain and "名称" in plain and "清一色" in plain and "pure one suit" in plain, plain
    assert "total value: the sum of each win's value" in plain and "failed records, each message once" in plain, plain


@pytest.mark.parametrize(("lang", "word"), [("zh", "条记录"), ("en", "records"), (None, "records")])
def test_the_batch_progress_bar_speaks_the_language(capsys: pytest.CaptureFixture[str], lang: str | None, word: str) -> None:
    from mahjong_calc.batch.items import BytesRead
    from mahjong_calc.batch.progress import progress_bar
    from mahjong_calc.core import words

    words.set_language(lang)
    read = BytesRead()
    with progress_bar(100, read) as advance:
        read.bytes = 50
        advance(1234)
    shown = capsys.readouterr().err
    assert "1,234 " + word in shown, shown
    assert (english_in(shown, []) == []) if lang == "zh" else (chinese_left(shown, []) == []), shown


@pytest.mark.parametrize(("lang", "one", "two"), [(["--lang", "en"], "(1 hand)", "(2 hands)"), (["--lang", "zh"], "(1 局)", "(2 局)")])
def test_game_list_counts_hands_in_the_language(tmp_path: Path, lang: list[str], one: str, two: str) -> None:
    runner, db = CliRunner(), str(tmp_path / "games.sqlite3")
    for _ in range(2):
        assert runner.invoke(app, ["game", "new", "--players", "王,李,张,赵", "--db", db]).exit_code == 0
    for game, hands in (("1", 1), ("2", 2)):
        for _ in range(hands):
            added = runner.invoke(app, ["game", "add", game, "13m456m678m11p555p2m", "--winner", "李", "--self-draw", "--db", db])
            assert added.exit_code == 0, added.output
    listed = runner.invoke(app, ["game", "list", "--db", db, *lang]).stdout
    assert one in listed and two in listed
