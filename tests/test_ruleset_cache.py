"""The ruleset disk cache: used while current, ignored when stale or broken, and YAML-free start-up."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from mahjong_calc import score_hand
from mahjong_calc.rules import cache as ruleset_cache
from mahjong_calc.rules import loader as ruleset_module
from mahjong_calc.rules.loader import _load_cached, _load_shipped, load_ruleset


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


def test_a_cached_entry_loads_with_the_declared_types(shipped: Path) -> None:
    # the entry keeps the document as written (`self_draw: 1`); loading it converts to the float the schema declares
    cold = load_ruleset("wuhu525")
    entry = _entry_data(shipped, "wuhu525")
    assert isinstance(entry, dict) and entry["numbers"]["zhi_factor"]["self_draw"] == 1
    _clear()
    warm = load_ruleset("wuhu525")
    assert type(cold.numbers.zhi_factor.self_draw) is type(warm.numbers.zhi_factor.self_draw) is float
    items = score_hand("123m456m789m11m555p", variant="wuhu525", self_draw=True).items
    assert [i.detail for i in items if i.key == "zhi_fan"] == ["11 × 1 = 11"]


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


# --- an entry is verified, never trusted ----------------------------------------------------

HAND = "111m444m777m99m777z"  # 清一色 is 交: 30 + 10 for the self-draw under wuhu315


def _warm(tmp_path: Path) -> Path:
    """Load wuhu315 once so its entry exists; forget the in-process copy; the entry's path."""
    load_ruleset("wuhu315")
    _clear()
    (entry,) = (tmp_path / "cache").glob("ruleset-*.json")
    return entry


def _edit(entry: Path, change: Callable[[dict[str, Any]], None], redigest: bool) -> None:
    cached = json.loads(entry.read_text(encoding="utf-8"))
    change(cached["data"])
    if redigest:  # as a careful hand would: then only the schema can catch it
        cached["digest"] = ruleset_cache._digest(cached["version"], cached["path"], cached["files"], cached["data"])
    entry.write_text(json.dumps(cached, ensure_ascii=False), encoding="utf-8")


def _value() -> int:
    return score_hand(HAND, variant="wuhu315", self_draw=True).value


def test_an_edited_number_in_an_entry_is_not_believed(shipped: Path, tmp_path: Path) -> None:
    entry = _warm(tmp_path)
    _edit(entry, lambda data: data["numbers"].__setitem__("jiao", 999), redigest=False)
    assert _entry_data(shipped, "wuhu315") is None
    assert _value() == 40  # not 1009


@pytest.mark.parametrize(
    "change",
    [
        lambda data: data["numbers"].__setitem__("jiao", "thirty"),  # a wrong type
        lambda data: data["numbers"].__setitem__("jiao", -30),  # out of range
        lambda data: data["numbers"].pop("jiao"),  # a deleted key
        lambda data: data["patterns"].__setitem__("qi_dui", {"zh": "七对", "en": "x", "role": "jiao"}),  # no such detector
        lambda data: data.__setitem__("scorer", "golf"),
    ],
    ids=["wrong_type", "negative", "deleted_key", "unknown_pattern", "unknown_scorer"],
)
def test_an_entry_that_fails_the_schema_is_ignored(shipped: Path, tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    entry = _warm(tmp_path)
    _edit(entry, change, redigest=True)
    assert _entry_data(shipped, "wuhu315") is not None  # the checksum holds ...
    assert _value() == 40  # ... but the schema does not: the YAML is read again
    assert _entry_data(shipped, "wuhu315")["numbers"]["jiao"] == 30  # type: ignore[index]  # and the entry rewritten


def test_a_same_size_same_time_edit_of_a_source_file_is_caught(shipped: Path, tmp_path: Path) -> None:
    _warm(tmp_path)
    base = shipped / "wuhu315.yaml"
    before = base.stat()
    base.write_text(base.read_text(encoding="utf-8").replace("jiao: 30 ", "jiao: 31 "), encoding="utf-8")
    os.utime(base, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert base.stat().st_size == before.st_size
    assert _entry_data(shipped, "wuhu315") is None
    assert load_ruleset("wuhu315").numbers.jiao == 31


@pytest.mark.parametrize("kind", ["dev_zero_link", "fifo", "link_to_a_good_entry", "huge"])
def test_an_entry_that_is_not_a_plain_file_is_never_read(shipped: Path, tmp_path: Path, kind: str) -> None:
    """In a child process with a timeout: reading a FIFO or /dev/zero would hang or fill memory."""
    entry = _warm(tmp_path)
    good = entry.read_bytes()
    entry.unlink()
    if kind == "dev_zero_link":
        entry.symlink_to("/dev/zero")
    elif kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs on this platform")
        os.mkfifo(entry)
    elif kind == "link_to_a_good_entry":
        (tmp_path / "elsewhere.json").write_bytes(good)
        entry.symlink_to(tmp_path / "elsewhere.json")
    else:
        entry.write_bytes(good[:-1] + b" " * (ruleset_cache.MAX_ENTRY + 1) + good[-1:])
    code = f"from mahjong_calc.rules import cache as ruleset_cache; print(ruleset_cache.get({str(shipped / 'wuhu315.yaml')!r}))"
    env = {**os.environ, "MJCALC_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "None"
    assert _value() == 40


def test_score_ignores_a_planted_fifo_entry(tmp_path: Path) -> None:
    """End to end: `mjcalc score` with a FIFO where its cache entry should be answers at once."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    cmd = [sys.executable, "-m", "mahjong_calc", "score", HAND, "-s", "--json"]
    env = {**os.environ, "MJCALC_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("MJCALC_NO_CACHE", None)
    subprocess.run(cmd, capture_output=True, env=env, check=True, timeout=60)
    (entry,) = (tmp_path / "cache").glob("ruleset-*.json")
    entry.unlink()
    os.mkfifo(entry)
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60, check=False)
    assert proc.returncode == 0 and json.loads(proc.stdout)["value"] == 40
