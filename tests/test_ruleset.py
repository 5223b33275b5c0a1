"""Rulesets: strict validation naming file and key, extends, --set, shipped files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mahjong_calc import RulesetError, load_ruleset, score_hand, shipped_names

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
    with pytest.raises(RulesetError, match="--set: numbers.jiao: must be an integer"):
        load_ruleset("wuhu315", overrides=["numbers.jiao=lots"])
    with pytest.raises(RulesetError, match="KEY=VALUE"):
        load_ruleset("wuhu315", overrides=["numbers.jiao"])


def test_rulesets_are_found_from_any_folder(tmp_path: Path) -> None:
    code = "from mahjong_calc import score_hand; print(score_hand('123m456m678m11p555p', variant='wuhu525').value)"
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "7"  # 2 + round(9 × 0.5)
