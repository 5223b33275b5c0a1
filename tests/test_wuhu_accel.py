"""The compiled Wuhu scorer (mahjong_calc._wuhu_accel) against the Python reference.

For every record it answers, it must give exactly what the Python path gives: the
same JSON text, value, payments and patterns for a win, the same reason for a hand
that is not one. It may decline (None) only where the Python path raises an input
error, or where the record uses what it leaves to Python (see accel.py).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import fields
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from installed import child_env, needs_compiled, run_installed, which_ran
from test_accel_properties import legal_wins
from test_wuhu import NEW_OPTION_CASES, PATTERN_CASES
from wuhu_hands import build

from mahjong_calc import accel
from mahjong_calc.api import score_hand
from mahjong_calc.core.errors import InputError, NotAWin, RulesetError
from mahjong_calc.core.records import KEY_FIELDS, normalize
from mahjong_calc.core.tiles import format_tiles
from mahjong_calc.rules.loader import load_ruleset
from mahjong_calc.variants.wuhu import score as wuhu

OPTIONS = accel.OPTIONS
SHIPPED = load_ruleset("wuhu315").options  # random records flip the shipped value of the options they pick
IN_CI = os.environ.get("CI", "").lower() in ("true", "1")
compiled = pytest.mark.skipif(
    not accel.available(),
    reason="the compiled Wuhu scorer (mahjong_calc._wuhu_accel) is not built in this install "
    "(no C compiler at install time) or MJCALC_NO_ACCEL is set",
)


@pytest.mark.skipif(
    not IN_CI and not accel.available(),
    reason="the compiled Wuhu scorer is not built here (no C compiler at install time); in CI (CI=true) this fails instead",
)
def test_the_extension_is_built_and_in_use() -> None:
    # CI installs with a C compiler; without one the batch would silently be ~10x slower
    assert accel.available(), "mahjong_calc._wuhu_accel did not build or import (or MJCALC_NO_ACCEL is set)"
    assert accel.plan_for("wuhu315") is not None
    assert accel.plan_for("wuhu525") is not None
    assert accel.plan_for("chizhou") is None
    assert accel.plan_for("no_such_variant") is None


@pytest.mark.skipif(
    importlib.util.find_spec("mahjong_calc._wuhu_accel") is None,
    reason="the compiled Wuhu scorer is not built in this install (no C compiler at install time)",
)
def test_it_reads_only_fields_the_table_declares() -> None:
    # not through accel.available(): a stale build that reads another field must fail here, not skip;
    # it is told where each sits in the key (accel.key_layout); see tests/test_flags.py
    assert set(importlib.import_module("mahjong_calc._wuhu_accel").FIELDS) <= set(KEY_FIELDS)


@cache
def _plan(variant: str, overrides: tuple[str, ...]) -> Any:
    plan = accel.compile_plan(load_ruleset(variant, overrides=overrides))
    assert plan is not None
    return plan


def _python(key: tuple[Any, ...], overrides: Sequence[str]) -> tuple[Any, ...]:
    """What the Python path gives for a record key: ("win", …), ("not", code, message) or ("error", code)."""
    try:
        result = score_hand(**dict(zip(KEY_FIELDS, key)), overrides=overrides)
    except NotAWin as err:
        return ("not", err.code, err.message)
    except InputError as err:
        return ("error", err.code)
    body = json.dumps(result.to_dict(), ensure_ascii=False)[1:].encode("utf-8")
    pays = tuple(result.payments[seat] for seat in ("next", "opposite", "previous"))
    return ("win", body, result.value, result.total, pays, tuple(result.patterns))


def _compiled(key: tuple[Any, ...], overrides: tuple[str, ...]) -> tuple[Any, ...] | None:
    answer = _plan(key[0] or "wuhu315", overrides).score(key)
    if answer is None:
        return None
    if len(answer) == 2:
        err = wuhu.not_a_win(answer[0], answer[1], load_ruleset(key[0] or "wuhu315", overrides=overrides))
        return ("not", err.code, err.message)
    return ("win", *answer)


def _check(record: dict[str, Any], overrides: tuple[str, ...] = (), leaves_to_python: bool = False) -> str:
    key, _ = normalize(record)
    python, compiled = _python(key, overrides), _compiled(key, overrides)
    if compiled is None:
        assert leaves_to_python or python[0] == "error", f"declined a record Python scores: {record} -> {python}"
        return "declined"
    assert compiled == python, record
    return str(python[0])


@compiled
@pytest.mark.parametrize(("hand", "flags", "patterns", "value"), PATTERN_CASES, ids=lambda v: str(v))
@pytest.mark.parametrize("variant", ["wuhu315", "wuhu525"])
def test_every_pattern_case(variant: str, hand: str, flags: dict[str, Any], patterns: list[str], value: int) -> None:
    flags = dict(flags)
    overrides = tuple(flags.pop("overrides", ()))
    assert _check({"variant": variant, "hand": hand, **flags}, overrides) == "win"


@compiled
@pytest.mark.parametrize("zhi", range(8, 15))
@pytest.mark.parametrize("ya", [0, 2, 3, 4, 5, 6, 7, 8])  # the seed's rows: 平和, then 压2-压8
def test_every_seed_table_hand(zhi: int, ya: int) -> None:
    case = build(zhi, ya)
    for variant in ("wuhu315", "wuhu525"):
        for extra in ({}, {"self_draw": True}, {"dealer": True}, {"self_draw": True, "dealer": True}):
            record = {"variant": variant, "hand": case.hand, "melds": list(case.melds), **extra}
            assert _check(record) == "win"


@compiled
@pytest.mark.parametrize("mask", range(2 ** len(OPTIONS)))
def test_every_combination_of_options(mask: int) -> None:
    overrides = tuple(f"options.{name}={'true' if mask >> i & 1 else 'false'}" for i, name in enumerate(OPTIONS))
    hands: list[dict[str, Any]] = [
        {"hand": "13m456m99m789p2m", "melds": ["1111s"], "after_kong": True},  # 杠后开花 with 压档
        {"hand": "12m456m678m11p555p3m"},  # an edge wait
        {"hand": "123m456m567p55p", "melds": ["111m"]},  # 四核 on an exposed pung
        {"hand": "123m456m99m", "melds": ["1111p", "9999s"]},  # kongs in two suits
        {"hand": "123m345m678m999m11m", "heavenly": True},  # two 交 sources
        {"hand": "111123456789m77z", "self_draw": True},  # three 嘴子
        {"hand": "13m456m678m11p555p2m", "dealer_seat": "opposite", "self_draw": True},
        {"hand": "13m345m678m55m2m", "melds": ["9999m"], "after_kong": True},  # 清一色 and 杠后压档
        {"hand": "1333m456m678m555p2m"},  # the middle of 123m, but two waits
        {"hand": "123m345m678m99m777z", "self_draw": True},  # a self-drawn 混一色
        {"hand": "111m444m777m99m777z", "self_draw": True},  # 混一色 and 对对胡, self-drawn
        {"hand": "123m345m567m789m11p"},  # overlapping sequences covering 1-9
    ]
    for record in hands:
        assert _check(record, overrides) == "win"


@compiled
@pytest.mark.parametrize(
    "record",
    [
        {"hand": "123m 456m789m11p999p"},  # spaces: other notations are the Python path's
        {"hand": "123m456m789m11pPPP"},
        {"hand": "123m456m789m11p999p", "robbing_kong": True, "discarder": "next"},
        {"hand": "123m456m789m11p999p", "wild": "5m"},
        {"hand": "123m456m789m11p999p", "piao": 1},
        {"hand": "123m456m789m11p999p", "opponent_pungs": "1,0,0"},
        {"hand": "123m456m789m11p999p", "robbed_fan": 1},  # Pujiang's 抢杠 input
        {"hand": "456m789m11p999p", "melds": ["123m"]},  # a chow meld: Wuhu refuses it, in Python
    ],
)
def test_what_it_leaves_to_python(record: dict[str, Any]) -> None:
    assert _check(record, leaves_to_python=True) == "declined"


def test_every_wuhu_option_is_compiled_or_declined() -> None:
    # an option the C file does not read must make compile_plan decline, or batch would score it as off
    assert not set(OPTIONS) & set(accel.PYTHON_ONLY_OPTIONS)
    assert {f.name for f in fields(wuhu.WuhuOptions)} == set(OPTIONS) | set(accel.PYTHON_ONLY_OPTIONS)


@compiled
@pytest.mark.parametrize("option", accel.PYTHON_ONLY_OPTIONS)
@pytest.mark.parametrize("variant", ["wuhu315", "wuhu525"])
def test_an_option_it_lacks_gets_no_plan_when_on(variant: str, option: str) -> None:
    assert accel.compile_plan(load_ruleset(variant, overrides=(f"options.{option}=true",))) is None
    assert accel.compile_plan(load_ruleset(variant, overrides=(f"options.{option}=false",))) is not None


@compiled
@pytest.mark.parametrize(("hand", "flags", "option", "on", "patterns", "values"), NEW_OPTION_CASES, ids=str)
@pytest.mark.parametrize("variant", ["wuhu315", "wuhu525"])
def test_python_only_options_off_are_compiled_on_are_declined(variant: str, hand: str, flags: dict[str, Any], option: str,
                                                              on: bool, patterns: list[str], values: tuple[int, int]) -> None:
    overrides = (f"options.{option}={str(on).lower()}",)
    if on:  # no plan at all: every record of that ruleset takes the Python path
        assert accel.compile_plan(load_ruleset(variant, overrides=overrides)) is None
    else:  # off, the compiled scorer answers and agrees byte for byte
        assert _check({"variant": variant, "hand": hand, **flags}, overrides) == "win"


@compiled
def test_plans_only_for_what_it_can_mirror(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(
        "extends: wuhu315\nname: house\npatterns:\n  qi_dui: {zh: 七对, en: seven pairs, role: jiao}\n",
        encoding="utf-8",
    )
    # a pattern Wuhu has no detector for, or a negative amount, is refused at load: no plan is ever asked for
    with pytest.raises(RulesetError, match=r"patterns\.qi_dui"):
        load_ruleset(rules_file=house)
    with pytest.raises(RulesetError, match=r"numbers\.jiao"):
        load_ruleset("wuhu315", overrides=("numbers.jiao=-5",))
    assert accel.compile_plan(load_ruleset("chizhou")) is None


# --- random records ------------------------------------------------------------------------

TILES = st.integers(0, 33)


@st.composite
def records(draw: st.DrawFn) -> tuple[dict[str, Any], tuple[str, ...]]:
    """Near-wins and junk: a pair plus sets (some declared), or any tiles; flags at random."""
    tiles: list[int] = []
    melds: list[str] = []
    kongs: list[str] = []
    if draw(st.booleans()):
        suit = draw(st.integers(0, 2))
        pair = draw(st.one_of(st.integers(suit * 9, suit * 9 + 8), TILES))
        tiles += [pair, pair]
        for _ in range(4):
            kind = draw(st.sampled_from(["chow", "pung", "pung", "kong", "honour"]))
            base = draw(st.one_of(st.integers(suit * 9, suit * 9 + 6), st.integers(0, 26)))
            shape = {"chow": [base, base + 1, base + 2], "pung": [base] * 3, "kong": [base] * 4, "honour": [33] * 3}[kind]
            where = draw(st.sampled_from(["hand", "hand", "hand", "meld", "concealed_kong"]))
            text = format_tiles(shape)
            if kind == "kong" and where == "concealed_kong":
                kongs.append(text)
            elif kind == "kong" or where != "hand":
                melds.append(text)
            else:
                tiles += shape
    else:
        tiles = draw(st.lists(TILES, min_size=1, max_size=15))
    tiles = draw(st.permutations(tiles))
    grouped = draw(st.booleans())
    record: dict[str, Any] = {
        "variant": draw(st.sampled_from(["wuhu315", "wuhu525"])),
        "hand": format_tiles(tiles) if grouped else "".join(format_tiles([t]) for t in tiles),
    }
    if grouped or draw(st.integers(0, 4)) == 0:
        record["win"] = format_tiles([draw(st.sampled_from(tiles) if draw(st.integers(0, 9)) else TILES)])
    if melds:
        record["melds"] = melds
    if kongs:
        record["concealed_kongs"] = kongs
    for flag in ("self_draw", "dealer", "after_kong", "heavenly", "earthly"):
        if draw(st.integers(0, 4)) == 0:
            record[flag] = True
    for seat_field in ("discarder", "dealer_seat"):
        seat = draw(st.sampled_from([None, None, None, "next", "opposite", "previous", "left"]))
        if seat is not None:
            record[seat_field] = seat
    chosen = draw(st.lists(st.sampled_from(OPTIONS), unique=True, max_size=3))
    return record, tuple(sorted(f"options.{name}={'false' if getattr(SHIPPED, name) else 'true'}" for name in chosen))


@compiled
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records())
def test_random_records_agree(case: tuple[dict[str, Any], tuple[str, ...]]) -> None:
    record, overrides = case
    _check(record, overrides)


@compiled
def test_random_records_reach_every_outcome() -> None:
    """The strategy above is no use if it never makes wins, not-wins and errors."""
    seen: set[str] = set()
    # derandomized: 400 fresh random draws missed every win (or every non-win) about one run in four
    find = settings(max_examples=400, deadline=None, database=None, derandomize=True)(given(records())(lambda case: seen.add(_check(*case))))
    find()
    assert {"win", "not", "declined"} <= seen


# --- the whole command ------------------------------------------------------------------------


# Run in the child instead of `python -m mahjong_calc`: it checks that the child imported
# the installed package with its compiled scorer on, counts the records that scorer
# answered, and reports both on stderr's last line after the batch has run.
_COUNTING_CHILD = """
import atexit, json, sys
import mahjong_calc, mahjong_calc.accel as accel, mahjong_calc.batch.evaluate as batch
from mahjong_calc.cli.app import main

answered = [0]
real_plan_for = batch.plan_for

class Counting:
    def __init__(self, plan):
        self.plan = plan
    def score(self, key):
        answer = self.plan.score(key)
        answered[0] += answer is not None
        return answer

def plan_for(variant):
    found = real_plan_for(variant)
    return None if found is None else (found[0], Counting(found[1]))

batch.plan_for = plan_for
atexit.register(lambda: print(json.dumps({"package": mahjong_calc.__path__[0], "accel": accel.available(),
                                          "compiled_answers": answered[0]}), file=sys.stderr))
sys.argv = ["mjcalc", *sys.argv[1:]]
main()
"""


def _batch_in_child(source: Path, cwd: Path, **env: str) -> tuple[subprocess.CompletedProcess[bytes], dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, "-c", _COUNTING_CHILD, "batch", "--jobs", "1", str(source)],
        cwd=cwd, capture_output=True, check=False, env=child_env(env), timeout=300,
    )
    report: dict[str, Any] = json.loads(done.stderr.decode().strip().splitlines()[-1])
    return done, report


@needs_compiled
def test_batch_output_is_the_same_without_it(tmp_path: Path) -> None:
    """The installed `mjcalc batch`, compiled path on (asserted in the child) against MJCALC_NO_ACCEL=1."""
    # near-wins and junk, then real wins (their option and number overrides do not apply to a batch)
    wins = _sample_records(200, legal_wins())
    sample = _sample_records(300) + wins
    lines = [json.dumps({"id": i, **record}) for i, (record, _) in enumerate(sample)]
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "cwd").mkdir()  # outside the repository: the child imports the installed package

    (fast, on), (slow, off) = _batch_in_child(source, tmp_path / "cwd"), _batch_in_child(source, tmp_path / "cwd", MJCALC_NO_ACCEL="1")
    assert on["package"] == off["package"] == which_ran()["package"]
    distinct_wins = {normalize(record)[0] for record, _ in wins}  # batch scores a repeated hand once
    assert on["accel"] and on["compiled_answers"] >= len(distinct_wins) > 50, on  # the real wins took the compiled path
    assert not off["accel"] and off["compiled_answers"] == 0, off
    assert fast.returncode == slow.returncode
    assert fast.stdout == slow.stdout
    assert len(fast.stdout.splitlines()) == 500


@needs_compiled
@pytest.mark.parametrize("option", accel.PYTHON_ONLY_OPTIONS)
def test_batch_with_an_option_it_lacks_gives_the_python_result(tmp_path: Path, option: str) -> None:
    """The installed `mjcalc batch --set options.X=true`, compiled scorer built, scores as the Python path does."""
    cases = [(hand, flags, on) for hand, flags, name, on, _, _ in NEW_OPTION_CASES if name == option]
    records = [{"id": i, "variant": variant, "hand": hand, **flags}
               for i, (variant, (hand, flags, _)) in enumerate((v, c) for v in ("wuhu315", "wuhu525") for c in cases)]
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    args = ["batch", "--jobs", "1", "-o", "jsonl", "--set", f"options.{option}=true", str(source)]
    fast, slow = run_installed(args), run_installed(args, env={"MJCALC_NO_ACCEL": "1"})
    assert which_ran()["accel"] and fast.returncode == slow.returncode == 0, fast.stderr
    assert fast.stdout == slow.stdout
    rows = [json.loads(line) for line in fast.stdout.splitlines()]
    expected = [score_hand(**{k: v for k, v in r.items() if k != "id"}, overrides=[f"options.{option}=true"]).value for r in records]
    assert [row["value"] for row in rows] == expected
    assert any(row["value"] != score_hand(**{k: v for k, v in r.items() if k != "id"}).value for row, r in zip(rows, records, strict=True))


def test_version_says_whether_the_compiled_scorer_is_on() -> None:
    on = run_installed(["--version"])
    off = run_installed(["--version"], env={"MJCALC_NO_ACCEL": "1"})
    assert on.returncode == off.returncode == 0
    if which_ran()["accel"]:
        assert on.stdout.splitlines()[1] == "compiled scorer: on", on.stdout
        assert off.stdout.splitlines()[1] == "compiled scorer: off (MJCALC_NO_ACCEL is set)", off.stdout
    else:
        assert on.stdout.splitlines()[1].startswith("compiled scorer: off ("), on.stdout
        assert off.stdout == on.stdout


def _sample_records(n: int, strategy: st.SearchStrategy[tuple[dict[str, Any], tuple[str, ...]]] | None = None) -> list[tuple[dict[str, Any], tuple[str, ...]]]:
    out: list[tuple[dict[str, Any], tuple[str, ...]]] = []

    @settings(max_examples=n, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(records() if strategy is None else strategy)
    def collect(case: tuple[dict[str, Any], tuple[str, ...]]) -> None:
        out.append(case)

    collect()
    return out
