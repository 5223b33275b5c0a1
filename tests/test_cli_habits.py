"""Habits of a well-made command line: one vocabulary of flags, stdin as `-`, suggestions for a
misspelt ruleset key, our own words for every message, and what a flag implies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mahjong_calc.cli.app import app
from mahjong_calc.core import words

HAND = "123m456m789m11p555p"


@pytest.fixture(autouse=True)
def no_language_chosen(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MJCALC_DB", str(tmp_path / "games.sqlite3"))
    for var in ("MJCALC_LANG", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    words.set_language(None)


runner = CliRunner()


def test_heavenly_is_the_dealers() -> None:
    heavenly = runner.invoke(app, ["score", HAND, "--heavenly", "--json"])
    with_dealer = runner.invoke(app, ["score", HAND, "--heavenly", "--dealer", "--json"])
    alone = runner.invoke(app, ["score", HAND, "--self-draw", "--json"])
    assert heavenly.exit_code == with_dealer.exit_code == 0
    assert json.loads(heavenly.stdout) == json.loads(with_dealer.stdout)
    assert json.loads(heavenly.stdout)["payments"] != json.loads(alone.stdout)["payments"]
    clash = runner.invoke(app, ["score", HAND, "--heavenly", "--dealer-seat", "next"])
    assert clash.exit_code == 2 and "[conflicting_flags]: --heavenly and --dealer-seat cannot both be given" in clash.stderr


def test_a_heavenly_hand_of_a_winner_who_is_not_the_dealer_is_refused_in_a_game() -> None:
    assert runner.invoke(app, ["game", "new", "--players", "A,B,C,D", "--dealer", "A"]).exit_code == 0
    refused = runner.invoke(app, ["game", "add", "--winner", "B", "--heavenly", HAND])
    assert refused.exit_code == 2
    assert "[conflicting_flags]: --heavenly: a heavenly hand (天胡) is the dealer's, and the winner is not this hand's dealer" in refused.stderr
    assert runner.invoke(app, ["game", "add", "--winner", "A", "--heavenly", HAND]).exit_code == 0


@pytest.mark.parametrize(("key", "like"), [
    ("options.ya_dang_edge_wiat", "`options.ya_dang_edge_wait`"),
    ("number.jiao", "`numbers.jiao`"),
])
def test_an_unknown_ruleset_key_gets_a_suggestion(key: str, like: str) -> None:
    done = runner.invoke(app, ["score", "13m456m678m11p555p2m", "--set", f"{key}=1", "--json"])
    assert done.exit_code == 2
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "ruleset_invalid" and f"did you mean {like}" in error["message"]


def test_a_key_like_none_points_to_options() -> None:
    done = runner.invoke(app, ["score", "13m456m678m11p555p2m", "--set", "zzz=1"])
    assert done.exit_code == 2 and "--set: zzz: unknown key (`mjcalc options` lists them)" in done.stderr


@pytest.mark.parametrize(("csv_text", "words"), [
    ('hand,self_draw\n"123456m13m99p555p2m",tr"ue\r\nx"\n', "a line break inside a cell that is not in quotes"),
    ('hand,note\n123456m13m99p555p2m,"a\nb"c\n', "a cell goes on after its closing quote"),
])
def test_bad_csv_is_said_in_our_words(tmp_path: Path, csv_text: str, words: str) -> None:
    path = tmp_path / "r.csv"
    path.write_bytes(csv_text.encode("utf-8"))
    done = runner.invoke(app, ["batch", str(path), "-o", "jsonl"])
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert rows[0]["error"]["code"] == "bad_csv" and words in rows[0]["error"]["message"]
    assert "universal-newline" not in done.stdout and "expected after" not in done.stdout
    zh = runner.invoke(app, ["batch", str(path), "-o", "jsonl", "--lang", "zh"])
    assert "CSV 读不了" in json.loads(zh.stdout.splitlines()[0])["error"]["message"]


def test_a_game_imported_twice_is_refused_unless_again(tmp_path: Path) -> None:
    assert runner.invoke(app, ["game", "new", "--players", "A,B,C,D", "--dealer", "A"]).exit_code == 0
    assert runner.invoke(app, ["game", "add", "--winner", "B", "--discarder", "A", "123456m13m99p555p2m"]).exit_code == 0
    export = tmp_path / "game.yaml"
    export.write_text(runner.invoke(app, ["game", "export"]).stdout, encoding="utf-8")
    elsewhere = {"MJCALC_DB": str(tmp_path / "other.sqlite3")}
    first = runner.invoke(app, ["game", "import", str(export), "--json"], env=elsewhere)
    assert first.exit_code == 0 and json.loads(first.stdout) == {"ids": [1]}
    twice = runner.invoke(app, ["game", "import", str(export), "--json"], env=elsewhere)
    assert twice.exit_code == 2 and json.loads(twice.stdout)["error"]["code"] == "already_imported"
    assert "game 1 is already live game 1" in twice.stderr and "--again" in twice.stderr
    again = runner.invoke(app, ["game", "import", str(export), "--again", "--json"], env=elsewhere)
    assert again.exit_code == 0 and json.loads(again.stdout) == {"ids": [2]}
    listed = runner.invoke(app, ["game", "list", "--json"], env=elsewhere)
    assert len(json.loads(listed.stdout)) == 2


@pytest.mark.parametrize("command", [["score", "--self-draw"], ["waits"], ["advise"]])
def test_a_hand_from_stdin_is_the_hand_written(command: list[str]) -> None:
    hand = "123456m13m99p555p" + ("2m" if command[0] != "waits" else "")
    written = runner.invoke(app, [command[0], hand, *command[1:], "--json"])
    piped = runner.invoke(app, [command[0], "-", *command[1:], "--json"], input=f"{hand[:7]}\n{hand[7:]}\n")
    assert written.exit_code == piped.exit_code == 0, piped.stderr
    assert json.loads(piped.stdout) == json.loads(written.stdout)


def test_an_empty_stdin_is_no_hand() -> None:
    done = runner.invoke(app, ["score", "-", "--json"], input="\n")
    assert done.exit_code == 2 and json.loads(done.stdout)["error"]["code"] == "empty_hand"
    bad = runner.invoke(app, ["score", "-", "--json"], input="12鸡3m\n")
    assert bad.exit_code == 2 and json.loads(bad.stdout)["error"]["column"] == 3


def complete(line: str) -> list[str]:
    """What the installed `mjcalc` offers to complete `line` (Typer's zsh protocol): one value a line."""
    from installed import run_installed

    done = run_installed([], env={"_MJCALC_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": line})
    assert done.returncode == 0, done.stderr
    return [v.strip("\"'") for v in done.stdout.replace("_arguments '*: :((", "").replace("))'", "").split("\n") if v.strip()]


@pytest.mark.parametrize(("line", "offered"), [
    ("mjcalc score --variant ", ["chizhou", "pujiang", "wuhu315", "wuhu525"]),
    ("mjcalc score --variant wu", ["wuhu315", "wuhu525"]),
    ("mjcalc options ", ["chizhou", "pujiang", "wuhu315", "wuhu525"]),
    ("mjcalc game new --variant c", ["chizhou"]),
    ("mjcalc score --set options.ya_dang_e", ["options.ya_dang_edge_wait="]),
    ("mjcalc score --set options.ya_dang_edge_wait=", ["options.ya_dang_edge_wait=true", "options.ya_dang_edge_wait=false"]),
    ("mjcalc options chizhou --set options.la_zi_n", ["options.la_zi_needs_no_flowers="]),
    ("mjcalc batch x.jsonl --set numbers.jiao_s", ["numbers.jiao_self_draw="]),
])
def test_completion_offers_variants_and_ruleset_keys(line: str, offered: list[str]) -> None:
    assert complete(line) == offered


RECORDS = '{"id": 1, "hand": "123456m13m99p555p2m", "self_draw": true}\n{"id": 2, "hand": "12x"}\n'
SEASON = "game,variant,players,dealer,winner,discarder,self_draw,hand\n1,wuhu315,\"A,B,C,D\",A,B,,true,123456m13m99p555p2m\n"


def _same(first: list[str], second: list[str], stdin: str | None = None) -> str:
    """Both command lines give the same exit status and stdout (which is returned)."""
    a, b = runner.invoke(app, first, input=stdin), runner.invoke(app, second, input=stdin)
    assert (a.exit_code, a.stdout) == (b.exit_code, b.stdout), (first, second, a.stderr, b.stderr)
    return a.stdout


@pytest.mark.parametrize(("alias", "spelled"), [
    (["batch", "-", "--json"], ["batch", "-", "-o", "jsonl"]),
    (["batch", "-", "-j"], ["batch", "-", "--format", "json"]),
    (["batch", "-", "--csv"], ["batch", "-", "-o", "csv"]),
    (["batch", "-", "-o", "jsonl", "--json"], ["batch", "-", "--format=jsonl"]),
])
def test_batch_takes_the_format_flags_every_command_takes(alias: list[str], spelled: list[str]) -> None:
    out = _same(alias, spelled, RECORDS)
    assert out.startswith("line,id,status") if "csv" in spelled else json.loads(out.splitlines()[0])["id"] == 1


def test_stats_and_game_export_take_the_same_flags(tmp_path: Path) -> None:
    season = tmp_path / "season.csv"
    season.write_text(SEASON, encoding="utf-8")
    csv_out = _same(["stats", str(season), "--csv"], ["stats", str(season), "-o", "csv"])
    assert csv_out.startswith("player,")
    assert json.loads(_same(["stats", str(season), "--json"], ["stats", str(season), "--format", "json"]))["players"]["B"]["wins"] == 1
    assert runner.invoke(app, ["game", "new", "--players", "A,B,C,D"]).exit_code == 0
    assert runner.invoke(app, ["game", "add", "--winner", "B", "--self-draw", "123456m13m99p555p2m"]).exit_code == 0
    assert _same(["game", "export", "--csv"], ["game", "export", "-o", "csv"]).startswith("game,variant")
    assert _same(["game", "export"], ["game", "export", "--format", "yaml"]).startswith("# mjcalc game 1")


@pytest.mark.parametrize("command", [
    ["score", "13m456m678m11p555p2m", "-s"], ["waits", "13m456m678m11p555p"], ["advise", "1234567m234p56p99s"], ["options"],
    ["variants"], ["game", "list"],
])
def test_every_table_command_takes_format_json_as_json(command: list[str]) -> None:
    out = _same([*command, "--json"], [*command, "-o", "json"])
    assert json.loads(out) is not None
    table = runner.invoke(app, [*command, "--format", "table"])
    assert table.exit_code == 0 and not table.stdout.lstrip().startswith(("{", "["))


@pytest.mark.parametrize(("args", "code", "words"), [
    (["batch", "-", "-o", "csv", "--json"], "conflicting_flags", "--format csv and --json: give one"),
    (["stats", "--json", "--csv"], "conflicting_flags", "--json and --csv: give one"),
    (["score", "13m456m678m11p555p2m", "-o", "xml"], "bad_format", "--format must be one of table, json, not 'xml'"),
    (["game", "export", "-o", "json"], "bad_format", "--format must be one of yaml, csv, xlsx, not 'json'"),
])
def test_a_format_that_is_not_one_or_two_that_disagree(args: list[str], code: str, words: str) -> None:
    done = runner.invoke(app, args, input=RECORDS)
    assert done.exit_code == 2 and f"[{code}]: {words}" in done.stderr


@pytest.mark.parametrize("spelled", [["-o", "json"], ["--format=json"], ["-ojson"], ["--json"]])
def test_a_usage_error_answers_in_json_when_the_format_is_json(capsys: pytest.CaptureFixture[str], spelled: list[str]) -> None:
    from mahjong_calc.cli.app import main

    with pytest.raises(SystemExit) as stopped:
        main(["score", "13m456m678m11p555p2m", *spelled, "--bogus"])
    out, err = capsys.readouterr()
    assert stopped.value.code == 2 and "No such option: --bogus" in err
    assert json.loads(out)["error"]["code"] == "usage_error"
