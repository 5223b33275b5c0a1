"""The ruleset disk cache: used while current, ignored when stale or broken, and YAML-free start-up."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from mahjong_calc import ruleset as ruleset_module
from mahjong_calc import ruleset_cache
from mahjong_calc.ruleset import _load_cached, _load_shipped, load_ruleset


def _clear() -> None:
    _load_cached.cache_clear()
    _load_shipped.cache_clear()


@pytest.fixture
def shipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the shipped rulesets, used as if it were the shipped folder, and an empty cache."""
    folder = tmp_path / "rulesets"
    shutil.copytree(ruleset_module.rulesets_dir(), folder)
    monkeypatch.setattr(ruleset_module, "rulesets_dir", lambda: folder)
    monkeypatch.setenv("MJCALC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MJCALC_NO_CACHE", raising=False)
    _clear()
    yield folder
    _clear()


def _entry_data(folder: Path, name: str) -> object:
    return ruleset_cache.get(str(folder / f"{name}.yaml"))


def test_a_shipped_ruleset_is_cached_and_read_back(shipped: Path, tmp_path: Path) -> None:
    first = load_ruleset("wuhu525")
    assert len(list((tmp_path / "cache").glob("ruleset-*.json"))) == 1
    entry = _entry_data(shipped, "wuhu525")
    assert isinstance(entry, dict) and entry["name"] == "wuhu525" and entry["numbers"]["jiao"] == first.numbers.jiao == 50
    _clear()
    again = load_ruleset("wuhu525")
    assert again is not first
    assert (again.numbers, again.options, again.patterns) == (first.numbers, first.options, first.patterns)


def test_a_changed_base_file_makes_the_entry_stale(shipped: Path) -> None:
    assert load_ruleset("wuhu525").options.ya_dang_edge_wait is False
    _clear()
    base = shipped / "wuhu315.yaml"  # wuhu525 extends it
    base.write_text(base.read_text(encoding="utf-8").replace("ya_dang_edge_wait: false", "ya_dang_edge_wait: true"),
                    encoding="utf-8")
    os.utime(base, ns=(1, 1))
    assert _entry_data(shipped, "wuhu525") is None
    assert load_ruleset("wuhu525").options.ya_dang_edge_wait is True


def test_a_broken_entry_is_ignored(shipped: Path, tmp_path: Path) -> None:
    load_ruleset("wuhu315")
    _clear()
    (entry,) = (tmp_path / "cache").glob("ruleset-*.json")
    entry.write_text("{not json", encoding="utf-8")
    assert _entry_data(shipped, "wuhu315") is None
    assert load_ruleset("wuhu315").numbers.jiao == 30


def test_no_cache_switch(shipped: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MJCALC_NO_CACHE", "1")
    load_ruleset("wuhu315")
    assert not (tmp_path / "cache").exists()


def test_user_files_are_not_cached(shipped: Path, tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("extends: wuhu315\nname: house\nversion: '1'\nnumbers:\n  jiao: 40\n", encoding="utf-8")
    assert load_ruleset(rules_file=path).numbers.jiao == 40
    assert not (tmp_path / "cache").exists()


def test_overrides_are_applied_after_the_cache(shipped: Path) -> None:
    load_ruleset("wuhu315")
    _clear()
    assert load_ruleset("wuhu315", overrides=["numbers.jiao=99"]).numbers.jiao == 99
    assert _entry_data(shipped, "wuhu315")["numbers"]["jiao"] == 30  # type: ignore[index]


def test_score_json_with_a_warm_cache_imports_neither_yaml_nor_rich(tmp_path: Path) -> None:
    cmd = [sys.executable, "-X", "importtime", "-m", "mahjong_calc", "score", "123456m13m99p555p2m", "-s", "--json"]
    env = {**os.environ, "MJCALC_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("MJCALC_NO_CACHE", None)
    cold = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    warm = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    assert cold.stdout == warm.stdout and '"value": 8' in warm.stdout

    def imported(stderr: str) -> set[str]:
        return {line.rsplit("|", 1)[-1].strip().split(".")[0] for line in stderr.splitlines() if "|" in line}

    assert "yaml" in imported(cold.stderr)  # the first run read the YAML ...
    assert "mahjong_calc" in imported(warm.stderr)
    assert "yaml" not in imported(warm.stderr)  # ... the second did not
    assert "rich" not in imported(warm.stderr)
