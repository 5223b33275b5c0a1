"""Rulesets: strict validation naming file and key, extends, --set, shipped files."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import types
from collections.abc import Mapping
from dataclasses import FrozenInstanceError
from pathlib import Path
from typing import Annotated, Literal, Union, get_args, get_origin

import pytest
from typer.testing import CliRunner

from mahjong_calc import RulesetError, load_ruleset, score_hand, shipped_names
from mahjong_calc.cli.app import app
from mahjong_calc.core.errors import shown
from mahjong_calc.rules import schema
from mahjong_calc.rules.loader import document_schema

WIN = "123m456m678m11p555p"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["wuhu315", "wuhu525"])
def test_shipped_rulesets_load(name: str) -> None:
    rs = load_ruleset(name)
    assert rs.name == name
    assert name in shipped_names()


def test_extends_inherits_and_overrides(tmp_path: Path) -> None:
    path = write(tmp_path, "extends: wuhu315\nname: house\noptions:\n  ya_dang_edge_wait: true\n")
    rs = load_ruleset(rules_file=path)
    assert rs.name == "house"
    assert rs.options.ya_dang_edge_wait is True
    assert rs.numbers.jiao == 30
    assert score_hand("12m456m678m11p555p3m", rules=path).to_dict()["ya_dang"] == 3


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("extends: wuhu315\noptions:\n  ya_dang_edg_wait: true\n", "options.ya_dang_edg_wait: unknown key"),
        ("extends: wuhu315\nnumbers:\n  jiao: thirty\n", "numbers.jiao: must be an integer"),
        ("extends: wuhu315\nnumbers:\n  jiao: true\n", "numbers.jiao: must be an integer"),
        ("extends: wuhu315\npatterns:\n  si_he: {zh: 四核, en: x, role: bonus}\n", "patterns.si_he.role"),
        ("extends: wuhu315\noptions:\n  ya_dang_edge_wait: true\n  ya_dang_edge_wait: false\n", "duplicate key"),
        ("extends: riichi\n", "extends"),
        ("name: x\nversion: '1'\nscorer: wuhu\n", "missing key"),
        ("name: x\nversion: '1'\nscorer: golf\n", "scorer"),
        ("- a list\n", "mapping"),
        ("extends: wuhu315\noptions: [\n", "not valid YAML"),
    ],
)
def test_bad_rulesets_name_file_and_key(tmp_path: Path, text: str, where: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(RulesetError) as info:
        load_ruleset(rules_file=path)
    assert str(path) in info.value.message
    assert where in info.value.message


def test_set_overrides_one_key_and_is_validated() -> None:
    rs = load_ruleset("wuhu315", overrides=["numbers.jiao=35"])
    assert rs.numbers.jiao == 35
    assert load_ruleset("wuhu315").numbers.jiao == 30  # the shipped one is untouched
    with pytest.raises(RulesetError, match=r"--set: numbers\.jiao: must be an integer"):
        load_ruleset("wuhu315", overrides=["numbers.jiao=lots"])
    with pytest.raises(RulesetError, match="KEY=VALUE"):
        load_ruleset("wuhu315", overrides=["numbers.jiao"])


def test_rulesets_are_found_from_any_folder(tmp_path: Path) -> None:
    code = "from mahjong_calc import score_hand; print(score_hand('123m456m678m11p555p', variant='wuhu525').value)"
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "7"  # 2 + round(9 × 0.5)


# --- frozen and typed ---------------------------------------------------------------------

HAND = "111m444m777m99m777z"  # 清一色 (交) on a self-draw: 30 + 10 in wuhu315


def test_a_loaded_ruleset_cannot_be_changed() -> None:
    rs = load_ruleset("wuhu315")
    before = score_hand(HAND, variant="wuhu315", self_draw=True).to_dict()
    attempts = [
        lambda: rs.data["numbers"].__setitem__("jiao", 99),  # type: ignore[index]
        lambda: rs.data.__setitem__("numbers", {}),  # type: ignore[attr-defined]
        lambda: setattr(rs.numbers, "jiao", 99),
        lambda: setattr(rs.numbers.di_fan, "self_draw", 99),
        lambda: setattr(rs, "numbers", None),
        lambda: rs.patterns.__setitem__("si_he", None),  # type: ignore[attr-defined]
        lambda: setattr(rs.patterns["qing_yi_se"], "role", "zui_zi"),
        lambda: rs.labels.__setitem__("jiao", None),  # type: ignore[attr-defined]
        lambda: rs.tiles.honours.append(1),  # type: ignore[attr-defined]
    ]
    for attempt in attempts:
        with pytest.raises((TypeError, AttributeError, FrozenInstanceError)):
            attempt()
    assert score_hand(HAND, variant="wuhu315", self_draw=True).to_dict() == before
    assert before["value"] == 40


def test_sections_are_typed_objects() -> None:
    wuhu = load_ruleset("wuhu525")
    assert (wuhu.numbers.jiao, wuhu.numbers.di_fan.self_draw_ya_dang, wuhu.numbers.zhi_factor.self_draw) == (50, 8, 1)
    assert wuhu.patterns["si_he"].role == "zui_zi" and wuhu.title.en == "Wuhu mahjong, 525 scoring"
    pujiang = load_ruleset("pujiang")
    assert pujiang.patterns["qi_dui"].fan_with_wild == 2 and pujiang.patterns["cai_shen_tou"].base is None
    assert pujiang.options.subtract_pungs == "before_fan"
    assert load_ruleset("chizhou").numbers.flowers.zi_an_gang == 3


def test_an_unknown_pattern_key_is_refused_at_load(tmp_path: Path, runner: CliRunner) -> None:
    path = write(tmp_path, "extends: wuhu315\npatterns:\n  qi_dui: {zh: 七对, en: seven pairs, role: jiao}\n")
    with pytest.raises(RulesetError) as info:
        load_ruleset(rules_file=path)
    assert info.value.code == "ruleset_invalid"
    assert str(path) in info.value.message and "patterns.qi_dui" in info.value.message
    result = runner.invoke(app, ["score", WIN, "--rules", str(path)])
    assert result.exit_code == 2 and "[ruleset_invalid]" in result.stderr and "patterns.qi_dui" in result.stderr


def test_a_key_another_variant_knows_is_still_unknown_here(tmp_path: Path) -> None:
    """Detectors are per variant: Chizhou's 字一色 is no Pujiang pattern."""
    path = write(tmp_path, "extends: pujiang\npatterns:\n  zi_yi_se: {zh: 字一色, en: all honours, fan: 1}\n")
    with pytest.raises(RulesetError, match=r"patterns\.zi_yi_se: no such pattern in the pujiang variant"):
        load_ruleset(rules_file=path)


# --- hostile rules files and --set values: exit 2 with one line, never exit 3 or a hang ----------


def _bomb() -> str:
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [{', '.join(['*' + prev] * 9)}]")
    return "extends: wuhu315\n" + "\n".join(lines) + "\n"


HOSTILE_FILES = [
    ("latin1", "extends: wuhu315\nname: caf\xe9\n".encode("latin-1"), "ruleset_invalid", "not UTF-8"),
    ("utf16", "extends: wuhu315\n".encode("utf-16"), "ruleset_invalid", "UTF-16"),
    ("utf16le", "extends: wuhu315\n".encode("utf-16-le"), "ruleset_invalid", "UTF-16"),
    ("inf", b"extends: wuhu315\nnumbers:\n  zhi_factor: {discard: .inf}\n", "ruleset_invalid", "numbers.zhi_factor.discard"),
    ("nan", b"extends: wuhu315\nnumbers:\n  zhi_factor: {self_draw: .nan}\n", "ruleset_invalid", "numbers.zhi_factor.self_draw"),
    ("int_inf", b"extends: wuhu315\nnumbers:\n  jiao: .inf\n", "ruleset_invalid", "numbers.jiao"),
    ("digits", b"extends: wuhu315\nnumbers:\n  jiao: " + b"7" * 5000 + b"\n", "ruleset_invalid", "too many digits"),
    ("negative", b"extends: wuhu315\nnumbers:\n  di_fan: {self_draw_ya_dang: -100}\n", "ruleset_invalid", "numbers.di_fan.self_draw_ya_dang"),
    ("huge", b"extends: wuhu315\nnumbers:\n  jiao: 10000000000000\n", "ruleset_invalid", "numbers.jiao"),
    ("fan", b"extends: pujiang\npatterns:\n  qi_dui: {zh: x, en: x, fan: 100000}\n", "ruleset_invalid", "patterns.qi_dui.fan"),
    ("honour", b"extends: chizhou\ntiles: {honours: [8]}\n", "ruleset_invalid", "tiles.honours[0]"),
    ("alias_bomb", _bomb().encode(), "ruleset_invalid", "aliases"),
    ("alias", b"extends: wuhu315\nlabels:\n  a: &x {zh: a, en: a}\n  b: *x\n", "ruleset_invalid", "aliases"),
    ("recursive", b"extends: wuhu315\ndescription: &d [*d]\n", "ruleset_invalid", "aliases"),
    ("nested", b"extends: wuhu315\ndescription: " + b"[" * 5000 + b"]" * 5000 + b"\n", "ruleset_invalid", "YAML"),
    ("list_key", b"extends: wuhu315\n? [a]\n: 1\n", "ruleset_invalid", "key"),
    ("bad_date", b"extends: wuhu315\nversion: 2020-13-45\n", "ruleset_invalid", "cannot be read"),
]


@pytest.mark.parametrize(("content", "code", "hint"), [row[1:] for row in HOSTILE_FILES], ids=[row[0] for row in HOSTILE_FILES])
def test_hostile_rules_files_exit_2_with_one_line(tmp_path: Path, runner: CliRunner, content: bytes, code: str, hint: str) -> None:
    path = tmp_path / "house.yaml"
    path.write_bytes(content)
    result = runner.invoke(app, ["score", WIN, "--rules", str(path)])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and f"[{code}]" in lines[0] and hint in lines[0] and str(path) in lines[0]
    assert len(lines[0]) < 400  # nothing echoed at length


HOSTILE_SETS = [
    ("not_utf8", "options.x=\udcff", "bad_set_option", "not UTF-8"),
    ("not_utf8_value", "options.ya_dang_edge_wait=\udcff", "bad_set_option", "not UTF-8"),
    ("negative", "numbers.di_fan.self_draw_ya_dang=-100", "ruleset_invalid", "numbers.di_fan.self_draw_ya_dang"),
    ("digits", "numbers.jiao=" + "9" * 5000, "ruleset_invalid", "numbers.jiao"),
    ("nan", "numbers.zhi_factor.discard=.nan", "ruleset_invalid", "numbers.zhi_factor.discard"),
    ("inf", "numbers.zhi_factor.self_draw=.inf", "ruleset_invalid", "numbers.zhi_factor.self_draw"),
    ("alias", "numbers.jiao=&a [*a]", "ruleset_invalid", "aliases"),
    ("long", "options.ya_dang_edge_wait=" + "x" * 100_000, "ruleset_invalid", "options.ya_dang_edge_wait"),
]


@pytest.mark.parametrize(("item", "code", "hint"), [row[1:] for row in HOSTILE_SETS], ids=[row[0] for row in HOSTILE_SETS])
def test_hostile_set_values_exit_2_with_one_line(runner: CliRunner, item: str, code: str, hint: str) -> None:
    result = runner.invoke(app, ["score", WIN, "--set", item])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and f"[{code}]" in lines[0] and hint in lines[0]
    assert len(lines[0]) < 400


def test_a_symlink_loop_is_not_found(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").symlink_to(tmp_path / "b.yaml")
    (tmp_path / "b.yaml").symlink_to(tmp_path / "a.yaml")
    with pytest.raises(RulesetError) as info:
        load_ruleset(rules_file=tmp_path / "a.yaml")
    assert info.value.code == "ruleset_not_found" and "a.yaml" in info.value.message


def test_a_name_with_a_nul_is_not_found() -> None:
    with pytest.raises(RulesetError) as info:
        load_ruleset(rules_file="house\x00.yaml")
    assert info.value.code == "ruleset_not_found" and "\\x00" in info.value.message


def test_a_directory_is_not_a_ruleset(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as info:
        load_ruleset(rules_file=tmp_path)
    assert info.value.code == "ruleset_not_found"


def test_a_too_large_file_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"extends: wuhu315\n" + b"# padding\n" * 200_000)
    with pytest.raises(RulesetError, match="larger than"):
        load_ruleset(rules_file=path)


@pytest.mark.parametrize("kind", ["fifo", "dev_zero"])
def test_devices_and_fifos_are_refused_without_waiting(tmp_path: Path, kind: str) -> None:
    """A FIFO with no writer blocked the open, /dev/zero grew to 1.5 GB: both are refused at once.

    In a child process with a timeout, so that a regression fails instead of hanging the suite.
    """
    if kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs on this platform")
        target = tmp_path / "rules.fifo"
        os.mkfifo(target)
    else:
        target = Path("/dev/zero")
        if not target.exists():
            pytest.skip("no /dev/zero on this platform")
    cmd = [sys.executable, "-m", "mahjong_calc", "score", WIN, "--rules", str(target), "--json"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=Path(__file__).parent.parent, check=False)
    assert proc.returncode == 2, proc.stderr
    assert json.loads(proc.stdout)["error"]["code"] == "ruleset_invalid"
    assert "not a regular file" in proc.stderr


# --- messages never echo a value at length ------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    ["x" * 1_000_000, 10**5000, list(range(100_000)), {"k" * 10_000: "v"}, "\x1b]0;PWNED\x07", "\udcff"],
    ids=["long_str", "big_int", "long_list", "long_key", "escape", "surrogate"],
)
def test_shown_is_short_and_printable(value: object) -> None:
    text = shown(value)
    assert len(text) <= 80
    assert text.isprintable()
    text.encode("utf-8")


def test_shown_survives_a_deeply_shared_value() -> None:
    value: list[object] = ["lol"]
    for _ in range(100):  # 2**100 leaves if walked naively
        value = [value, value]
    assert len(shown(value)) <= 80


def wrong_types(value: object, hint: object, where: str) -> list[str]:
    """Every leaf of a loaded ruleset section that is not exactly of its declared type (an int is no float)."""
    if get_origin(hint) is Annotated:
        hint = get_args(hint)[0]
    origin = get_origin(hint)
    if origin in (types.UnionType, Union):
        if value is None:
            return []
        (hint,) = (a for a in get_args(hint) if a is not type(None))
        return wrong_types(value, hint, where)
    if origin is Literal:
        return [] if any(value == c and type(value) is type(c) for c in get_args(hint)) else [f"{where}: {value!r}"]
    if origin is tuple:
        assert isinstance(value, tuple), where
        return [w for i, v in enumerate(value) for w in wrong_types(v, get_args(hint)[0], f"{where}[{i}]")]
    if origin is not None and issubclass(origin, Mapping):
        assert isinstance(value, Mapping), where
        return [w for k, v in value.items() for w in wrong_types(v, get_args(hint)[1], f"{where}.{k}")]
    if dataclasses.is_dataclass(hint):
        assert type(value) is hint, where
        return [w for name, sub in schema.hints(hint).items() for w in wrong_types(getattr(value, name), sub, f"{where}.{name}")]
    return [] if type(value) is hint else [f"{where}: {value!r} is {type(value).__name__}, declared {hint!r}"]


@pytest.mark.parametrize("name", shipped_names())
def test_every_value_of_a_shipped_ruleset_has_its_declared_type(name: str) -> None:
    rs = load_ruleset(name)
    schema_of = document_schema(rs.variant)
    assert {"numbers", "options", "patterns"} <= set(schema_of)
    wrong = [w for key, hint in schema_of.items() for w in wrong_types(getattr(rs, key), hint, key)]
    assert not wrong


def test_an_integer_for_a_float_key_loads_as_a_float() -> None:
    # wuhu525 writes its self-draw factor `1`; the document keeps what was written
    rs = load_ruleset("wuhu525")
    assert type(rs.numbers.zhi_factor.self_draw) is float and rs.data["numbers"]["zhi_factor"]["self_draw"] == 1
    assert type(load_ruleset("wuhu315", overrides=("numbers.zhi_factor.discard=1",)).numbers.zhi_factor.discard) is float
    assert type(rs.numbers.jiao) is int
