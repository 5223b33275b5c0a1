"""The CLI: exit codes, one-line errors on stderr, JSON on stdout, the table, help."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from mahjong_calc.cli.app import app

WIN = "123m456m678m11p555p"  # a plain 9-支 discard win worth 3 in wuhu315


def invoke(runner: CliRunner, *args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args))


def test_score_json_contract(runner: CliRunner) -> None:
    result = invoke(runner, "score", WIN, "--variant", "wuhu315", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    for key in ("variant", "ruleset_version", "hand", "valid", "value", "items", "patterns", "payments", "decomposition"):
        assert key in data
    assert data["valid"] is True
    assert data["variant"] == "wuhu315"
    assert data["hand"] == {"concealed": "123456678m11555p", "melds": [], "win": "5p"}
    assert data["value"] == 3
    assert data["payments"] == {"next": 3, "opposite": 3, "previous": 3}
    assert all(set(i) >= {"key", "zh", "en", "value"} for i in data["items"])


def test_score_flags_reach_the_scorer(runner: CliRunner) -> None:
    result = invoke(runner, "score", "123m456m99m789p", "-m", "1111s", "--after-kong", "--dealer", "-j")
    data = json.loads(result.stdout)
    assert data["patterns"] == ["gang_hou_kai_hua"]
    assert [i["key"] for i in data["items"]] == ["di_fan", "zhi_fan", "gang_hou_kai_hua", "ming_gang", "dealer"]


def test_win_flag_picks_the_winning_tile(runner: CliRunner) -> None:
    data = json.loads(invoke(runner, "score", "2m13m456m678m11p555p", "--win", "2m", "--json").stdout)
    assert data["ya_dang"] == 2
    assert data["hand"]["win"] == "2m"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_table_shows_items_value_and_payments(runner: CliRunner, lang: str) -> None:
    result = invoke(runner, "score", "111m444m777m99m555p", "--self-draw", "--lang", lang)
    assert result.exit_code == 0
    out = result.stdout
    assert ("底番" in out and "对对胡" in out) if lang == "zh" else ("base" in out and "all pungs" in out)
    assert ("下家" in out) if lang == "zh" else ("next" in out)
    assert "11" in out  # the value
    assert "\x1b[" not in out  # no terminal: plain text


BAD_INPUT = [
    (["score", "12x3m"], "unknown_character", "12[x]3m"),
    (["score", "123456789m11p555"], "missing_suit", "column"),
    (["score", "102m"], "invalid_tile", "0"),
    (["score", "123m456m789m11m555z"], "tile_not_in_variant", "7z"),
    (["score", "11111m456m789m555p"], "too_many_copies", "1m"),
    (["score", "123m456m789m11p", "-m", "1111m"], "too_many_copies", "1m"),
    (["score", "123m456m789m11p"], "wrong_tile_count", "11"),
    (["score", WIN, "--win", "9s"], "win_tile_not_in_hand", "9s"),
    (["score", "123m456m789m11p", "-m", "556p"], "bad_meld", "556p"),
    (["score", "123m456m789m11p", "-m", "123p"], "chow_not_allowed", "chow"),
    (["score", WIN, "--variant", "riichi"], "unknown_variant", "riichi"),
    (["score", WIN, "--self-draw", "--discarder", "next"], "conflicting_flags", "--discarder"),
    (["score", WIN, "--heavenly", "--earthly"], "conflicting_flags", "--earthly"),
    (["score", "1m" * 150], "input_too_long", "limit"),
    (["score", WIN, "--set", "options.nope=1"], "ruleset_invalid", "options.nope"),
    (["score", WIN, "--set", "options.ya_dang_edge_wait=maybe"], "ruleset_invalid", "true or false"),
    (["score", WIN, "--rules", "/nonexistent/rules.yaml"], "ruleset_not_found", "rules.yaml"),
    (["score", WIN, "--after-kong"], "after_kong_without_kong", "kong"),
]


@pytest.mark.parametrize(("args", "code", "hint"), BAD_INPUT)
def test_bad_input_exits_2_with_one_line(runner: CliRunner, args: list[str], code: str, hint: str) -> None:
    result = invoke(runner, *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert f"[{code}]" in lines[0] and hint in lines[0]
    as_json = invoke(runner, *args, "--json")
    assert as_json.exit_code == 2
    payload = json.loads(as_json.stdout)
    assert payload["valid"] is False and payload["error"]["code"] == code


@pytest.mark.parametrize(
    ("hand", "code"),
    [("123m456p789s11p555s", "no_ba_zhi"), ("123m456m789m11p556p", "not_a_winning_hand")],
)
def test_not_a_win_exits_1_with_reason(runner: CliRunner, hand: str, code: str) -> None:
    result = invoke(runner, "score", hand)
    assert result.exit_code == 1
    assert f"[{code}]" in result.stderr
    as_json = invoke(runner, "score", hand, "--json")
    assert as_json.exit_code == 1
    assert json.loads(as_json.stdout)["reason"]["code"] == code


def test_variants_lists_shipped_rulesets(runner: CliRunner) -> None:
    result = invoke(runner, "variants", "--json")
    names = [v["name"] for v in json.loads(result.stdout)]
    assert {"wuhu315", "wuhu525"} <= set(names)


_ROOT = typer.main.get_command(app)
COMMANDS = sorted(_ROOT.list_commands(typer.Context(_ROOT)))  # type: ignore[attr-defined]


def test_the_commands_exist() -> None:
    assert {"score", "variants"} <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_an_example(runner: CliRunner, command: str) -> None:
    result = invoke(runner, command, "--help")
    assert result.exit_code == 0
    assert "Example" in result.stdout and f"mjcalc {command}" in result.stdout


def test_help_lists_every_command(runner: CliRunner) -> None:
    out = invoke(runner, "--help").stdout
    for command in COMMANDS:
        assert command in out


def test_usage_errors_in_json_mode_are_json_and_never_a_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mahjong_calc", "score", WIN, "--bogus", "--json"], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["error"]["code"] == "usage_error"
    assert "Traceback" not in proc.stderr


def test_module_entry_point_and_version() -> None:
    proc = subprocess.run([sys.executable, "-m", "mahjong_calc", "--version"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.startswith("mjcalc ")


# --- flags a variant does not use, bounded numbers ------------------------------------------

WUHU_WIN = "123456m13m99p555p2m"
PUJIANG_WIN = "111m222p333s444s3m7z"

NOT_IN_VARIANT = [
    ([WUHU_WIN, "-s", "--piao", "2"], "--piao", "pujiang"),
    ([WUHU_WIN, "-s", "--wild", "3m"], "--wild", "pujiang"),
    ([WUHU_WIN, "-s", "--opponent-pungs", "1,1,1"], "--opponent-pungs", "pujiang"),
    ([WUHU_WIN, "--robbing-kong", "-f", "next"], "--robbing-kong", "chizhou, pujiang"),
    ([PUJIANG_WIN, "-v", "pujiang", "--wild", "3m", "--dealer"], "--dealer", "wuhu"),
    (["123m456p789s11z", "-k", "5555m", "-v", "chizhou", "-s", "--heavenly"], "--heavenly", "wuhu"),
    (["123m456p789s11z", "-k", "5555m", "-v", "chizhou", "-s", "--dealer-seat", "next"], "--dealer-seat", "wuhu"),
]


@pytest.mark.parametrize(("args", "flag", "variants"), NOT_IN_VARIANT)
def test_a_flag_the_variant_does_not_use_is_an_error(runner: CliRunner, args: list[str], flag: str, variants: str) -> None:
    result = invoke(runner, "score", *args)
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert "[flag_not_in_variant]" in line and f"{flag} does not apply" in line and variants in line
    as_json = invoke(runner, "score", *args, "--json")
    assert json.loads(as_json.stdout)["error"]["code"] == "flag_not_in_variant"


def test_batch_names_the_record_field(runner: CliRunner) -> None:
    record = json.dumps({"id": 1, "hand": WUHU_WIN, "self_draw": True, "piao": 2})
    result = runner.invoke(app, ["batch", "-"], input=record + "\n")
    assert result.exit_code == 1
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "flag_not_in_variant"
    assert error["message"].startswith("piao does not apply") and "--piao" not in error["message"]


@pytest.mark.parametrize("piao", ["8", "20000", "1000000000", "1e12", "-1", "9" * 5000, "two"])
def test_piao_is_bounded_on_the_command_line(runner: CliRunner, piao: str) -> None:
    result = invoke(runner, "score", PUJIANG_WIN, "-v", "pujiang", "--wild", "3m", "--piao", piao, "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["code"] == "bad_piao"
    (line,) = result.stderr.strip().splitlines()
    assert len(line) < 200


def test_piao_at_the_bound_scores(runner: CliRunner) -> None:
    result = invoke(runner, "score", PUJIANG_WIN, "-v", "pujiang", "--wild", "3m", "--piao", "7", "--json")
    assert result.exit_code == 0, result.stderr
    assert "piao_cai" in json.loads(result.stdout)["patterns"]


@pytest.mark.parametrize("pungs", ["9,0,0", "1,1", "a,b,c", "-1,0,0"])
def test_opponent_pungs_are_bounded_on_the_command_line(runner: CliRunner, pungs: str) -> None:
    result = invoke(runner, "score", PUJIANG_WIN, "-v", "pujiang", "--wild", "3m", "--opponent-pungs", pungs, "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["code"] == "bad_opponent_pungs"


# --- what reaches the terminal -----------------------------------------------------------------

HOSTILE = [
    ("12\n3x", "unknown_character"),
    ("\x1b]0;PWNED\x071x", "unknown_character"),
    ("\u202e123m", "unknown_character"),
    ("1m" * 5000, "input_too_long"),
]


@pytest.mark.parametrize(("hand", "code"), HOSTILE, ids=["newline", "osc-escape", "bidi", "long"])
def test_stderr_is_one_clean_line(runner: CliRunner, hand: str, code: str) -> None:
    result = invoke(runner, "score", hand)
    assert result.exit_code == 2
    assert result.stderr.endswith("\n") and result.stderr.count("\n") == 1
    line = result.stderr.rstrip("\n")
    assert f"[{code}]" in line
    assert line.isprintable() and len(line) < 400


@pytest.mark.parametrize("args", [["--win", "\x1b[2J" * 100], ["-m", "\x07" * 1000], ["-v", "a\x1bb" * 500]])
def test_echoed_values_are_escaped_and_bounded(runner: CliRunner, args: list[str]) -> None:
    result = invoke(runner, "score", WUHU_WIN, *args, "--json")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and result.stderr.rstrip("\n").isprintable()
    assert len(result.stderr) < 600
    assert json.loads(result.stdout)["error"]["message"].isprintable()


def _installed(args: list[Any], **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
    from installed import MJCALC, child_env

    return subprocess.run([*MJCALC, *args], env=child_env(), capture_output=True, check=False, cwd="/", **kwargs)


@pytest.mark.parametrize("args", [[b"\xff1m"], [WUHU_WIN, "--rules", b"\xff.yaml"], [WUHU_WIN, "--win", b"\xff"], [WUHU_WIN, b"--\xff"]])
def test_json_stays_utf8_with_undecodable_argv(args: list[Any]) -> None:
    proc = _installed(["score", *args, "--json"])
    assert proc.returncode == 2
    payload = json.loads(proc.stdout.decode("utf-8"))  # strict: a raw 0xff byte fails here
    assert payload["valid"] is False
    assert b"\xff" not in proc.stderr and len(proc.stderr.splitlines()) == 1


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("extra", [["--json"], []])
def test_a_full_disk_is_one_line_and_exit_3(extra: list[str]) -> None:
    from installed import MJCALC, child_env

    with open("/dev/full", "wb") as full:
        proc = subprocess.run([*MJCALC, "score", WUHU_WIN, "-s", *extra], stdout=full, stderr=subprocess.PIPE, env=child_env(), check=False, cwd="/")
    assert proc.returncode == 3
    lines = proc.stderr.decode().splitlines()
    assert len(lines) == 1 and "[output_error]" in lines[0] and "Traceback" not in lines[0]


@pytest.mark.parametrize(
    ("args", "wants_json"),
    [
        (["-sj", "--bogus"], True),
        (["-js", "--bogus"], True),
        (["-j", "--bogus"], True),
        (["--json", "--bogus"], True),
        (["-vj", "--bogus"], False),  # j is --variant's value
        (["-v", "-j", "--bogus"], False),  # -j is --variant's value
        (["-s", "--bogus"], False),
        (["--bogus", "--", "-j"], False),  # after --, -j is a word of HAND
        (["--lang", "x\ny", "-j"], True),
        (["--bogus\x1b]0;PWNED\x07" + "x" * 1000], False),
    ],
)
def test_usage_errors_honour_combined_short_flags(args: list[str], wants_json: bool) -> None:
    proc = _installed(["score", WUHU_WIN, *args])
    assert proc.returncode == 2
    assert len(proc.stderr.splitlines()) == 1 and b"[usage_error]" in proc.stderr
    assert proc.stderr.decode().rstrip("\n").isprintable() and len(proc.stderr) < 600
    if wants_json:
        assert json.loads(proc.stdout)["error"]["code"] == "usage_error"
    else:
        assert proc.stdout == b""


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--meld", "--lang", "zh"], "--meld"),  # not a meld `--lang` and a hand ending in `zh`
        (["--discarder", "--json"], "--discarder"),
        (["-m", "123s", "-m", "-j"], "--meld"),
        (["--wild", "-s"], "--wild"),
    ],
)
def test_an_option_given_where_a_value_belongs_is_a_missing_value(args: list[str], option: str) -> None:
    proc = _installed(["score", WUHU_WIN, *args])
    assert proc.returncode == 2
    (line,) = proc.stderr.decode().strip().splitlines()
    said = f"Option '{option}' requires an argument." if "zh" not in args else f"选项 `{option}` 后面要给一个值。"  # --lang zh is still read
    assert "[usage_error]" in line and said in line


def test_a_value_that_only_looks_like_an_option_is_kept(runner: CliRunner) -> None:
    result = invoke(runner, "score", WUHU_WIN, "--discarder", "next", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["valid"] is True


@pytest.mark.parametrize(
    ("args", "code", "exit_code"),
    [
        ([WUHU_WIN, "-s", "--json"], "output_error", 3),
        ([WUHU_WIN, "-s"], "output_error", 3),
        ([WUHU_WIN, "-s", "--piao", "2", "--json"], "flag_not_in_variant", 2),  # the error that matters is kept
    ],
)
def test_a_closed_stdout_is_one_line(args: list[str], code: str, exit_code: int) -> None:
    from installed import MJCALC, child_env

    proc = subprocess.run(
        [*MJCALC, "score", *args], stderr=subprocess.PIPE, env=child_env(), check=False, cwd="/",
        preexec_fn=lambda: os.close(1),  # the child starts with stdout closed (>&-)
    )
    assert proc.returncode == exit_code
    lines = proc.stderr.decode().splitlines()
    assert len(lines) == 1 and f"[{code}]" in lines[0]


def test_a_hand_word_without_a_suit_is_refused_pointing_at_it(runner: CliRunner) -> None:
    result = runner.invoke(app, ["score", "13m", "456", "678m11p555p2m"])
    assert result.exit_code == 2
    assert "[missing_suit]" in result.stderr and "write 456m, or join the words" in result.stderr
    assert "13m [4]56 678m" in result.stderr
    result = runner.invoke(app, ["score", "13m", "456", "678m11p555p2m", "--json"])
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"] == {"code": "missing_suit", "position": 4, "column": 5,
                                                  "message": "the word 456 has no suit: write 456m, or join the words"}
    assert runner.invoke(app, ["score", "13m456678m11p555p2m"]).exit_code == 0
