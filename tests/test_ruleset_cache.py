"""The ruleset disk cache: used while current, ignored when stale or broken, and YAML-free start-up."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mahjong_calc import ruleset_cache
from mahjong_calc.ruleset import _load_cached, load_ruleset


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("MJCALC_CACHE_DIR", str(folder))
    monkeypatch.delenv("MJCALC_NO_CACHE", raising=False)
    _load_cached.cache_clear()
    yield folder
    _load_cached.cache_clear()


def _rules(tmp_path: Path, jiao: int) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: wuhu315\nname: house\nversion: '1'\nnumbers:\n  jiao: {jiao}\n", encoding="utf-8")
    return path


def test_a_loaded_ruleset_is_cached_and_read_back(tmp_path: Path, cache_dir: Path) -> None:
    path = _rules(tmp_path, 40)
    first = load_ruleset(rules_file=path)
    assert len(list(cache_dir.glob("ruleset-*.json"))) == 1
    cached = ruleset_cache.get(str(path.resolve()))
    assert cached == dict(first.data)
    assert cached is not None and cached["numbers"]["jiao"] == 40


def test_a_changed_file_makes_the_entry_stale(tmp_path: Path) -> None:
    path = _rules(tmp_path, 40)
    load_ruleset(rules_file=path)
    _load_cached.cache_clear()
    _rules(tmp_path, 400)  # a different size
    os.utime(path, ns=(1, 1))  # and a different time
    assert ruleset_cache.get(str(path.resolve())) is None
    assert load_ruleset(rules_file=path).data["numbers"]["jiao"] == 400


def test_a_broken_entry_is_ignored(tmp_path: Path, cache_dir: Path) -> None:
    path = _rules(tmp_path, 40)
    load_ruleset(rules_file=path)
    _load_cached.cache_clear()
    (entry,) = cache_dir.glob("ruleset-*.json")
    entry.write_text("{not json", encoding="utf-8")
    assert ruleset_cache.get(str(path.resolve())) is None
    assert load_ruleset(rules_file=path).data["numbers"]["jiao"] == 40


def test_no_cache_switch(tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MJCALC_NO_CACHE", "1")
    load_ruleset(rules_file=_rules(tmp_path, 40))
    assert not cache_dir.exists()


def test_overrides_are_applied_after_the_cache(tmp_path: Path) -> None:
    path = _rules(tmp_path, 40)
    load_ruleset(rules_file=path)
    _load_cached.cache_clear()
    assert load_ruleset(rules_file=path, overrides=["numbers.jiao=99"]).data["numbers"]["jiao"] == 99
    assert ruleset_cache.get(str(path.resolve()))["numbers"]["jiao"] == 40  # type: ignore[index]


def test_score_json_with_a_warm_cache_imports_neither_yaml_nor_rich(cache_dir: Path) -> None:
    cmd = [sys.executable, "-X", "importtime", "-m", "mahjong_calc", "score", "123456m13m99p555p2m", "-s", "--json"]
    env = {**os.environ, "MJCALC_CACHE_DIR": str(cache_dir)}
    cold = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    warm = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    assert cold.stdout == warm.stdout and '"value": 8' in warm.stdout
    assert " yaml" in cold.stderr  # the first run read the YAML ...
    imported = {line.rsplit("|", 1)[-1].strip().split(".")[0] for line in warm.stderr.splitlines() if "|" in line}
    assert "mahjong_calc" in imported
    assert "yaml" not in imported  # ... the second did not
    assert "rich" not in imported
