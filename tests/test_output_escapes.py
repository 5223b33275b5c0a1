"""An escape sequence a file brings in (OSC 52, which some terminals take as "write the clipboard",
in its 7-bit and 8-bit forms) never reaches an output raw: not the terminal's lines, not a CSV of
`game export` or `batch`, not YAML, not the page's JSON. Live games refuse it at entry; a database
written before that, or a file given to `batch`, still holds it, and every output escapes it."""

from __future__ import annotations

import json
import sqlite3
import warnings
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mahjong_calc.cli.app import app
from mahjong_calc.live import Store

PLAYERS = ["王", "李", "张", "赵"]
OSC_IDS = ["a\x1b]52;c;aGVsbG8=\x07", "b\x9d52;c;aGVsbG8=\x9c"]  # ESC ] ... BEL, and the C1 OSC ... ST
RAW = ("\x1b", "\x07", "\x9d", "\x9c", "\x9b")


def _raw(text: str) -> list[str]:
    return [repr(ch) for ch in RAW if ch in text]


@pytest.fixture
def legacy(tmp_path: Path) -> Path:
    """A games database with hands whose ids hold escape sequences, written as an older mjcalc could."""
    path = tmp_path / "g.sqlite3"
    with Store(path) as store:
        store.new_game({"variant": "wuhu315", "players": PLAYERS, "dealer": "王", "chips": 0})
    with sqlite3.connect(path) as con:
        for seq, rid in enumerate(OSC_IDS, 1):
            hand = {"winner": "李", "hand": "123456m13m99p555p2m", "self_draw": True, "id": rid}
            con.execute("INSERT INTO events (game, seq, kind, body, at) VALUES (1, ?, 'hand', ?, '2026-12-01T00:00:00+00:00')",
                        (seq, json.dumps(hand, ensure_ascii=False)))
        con.execute("UPDATE games SET events = 2 WHERE id = 1")
    return path


@pytest.mark.parametrize("args", [
    ["export"], ["export", "--format", "csv"], ["history"], ["history", "--json"], ["show"], ["show", "--json"], ["list"],
])
def test_the_cli_escapes_what_the_database_holds(legacy: Path, args: list[str]) -> None:
    done = CliRunner().invoke(app, ["game", *args, "--db", str(legacy)])
    assert done.exit_code == 0, done.output
    assert _raw(done.stdout) == []


def test_the_escaped_export_still_says_the_id(legacy: Path) -> None:
    done = CliRunner().invoke(app, ["game", "export", "--format", "csv", "--db", str(legacy)])
    assert "a\\u001b]52;c;aGVsbG8=\\u0007" in done.stdout and "b\\u009d52" in done.stdout
    done = CliRunner().invoke(app, ["game", "export", "--db", str(legacy)])
    assert '"a\\e]52;c;aGVsbG8=\\a"' in done.stdout  # YAML's own escapes


def test_entry_refuses_it(tmp_path: Path) -> None:
    with Store(tmp_path / "g.sqlite3") as store:
        store.new_game({"variant": "wuhu315", "players": PLAYERS, "dealer": "王", "chips": 0})
        for rid in OSC_IDS:
            with pytest.raises(Exception) as refused:
                store.add(1, {"draw": True, "id": rid})
            assert getattr(refused.value, "code", None) == "bad_field"


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_batch_escapes_an_id(tmp_path: Path, fmt: str) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps({"id": rid, "hand": "123456m13m99p555p2m", "self_draw": True}) + "\n" for rid in OSC_IDS),
                      encoding="utf-8")
    from installed import run_installed

    done = run_installed(["batch", str(source), "--format", fmt], timeout=120)
    assert done.returncode == 0, done.stderr
    assert _raw(done.stdout) == [] and done.stdout.count("\n") == 2 + (fmt == "csv")
    if fmt == "jsonl":
        assert [json.loads(line)["id"] for line in done.stdout.splitlines()] == OSC_IDS  # JSON's escapes: the same id


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("path", ["/api/games/1", "/api/games/1/hands", "/api/games/1/history", "/api/games/1/export",
                                  "/api/games/1/export?format=csv"])
def test_the_page_s_answers_escape_it(legacy: Path, path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
    pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (the test extra)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from mahjong_calc.web import pocket
    from mahjong_calc.web.app import create_app

    answer = TestClient(create_app(legacy), base_url="http://127.0.0.1:8315").get(path)
    assert answer.status_code == 200 and _raw(answer.text) == []
    monkeypatch.setattr(pocket, "DB", str(legacy))
    monkeypatch.setattr(pocket, "_FOLDS", [])
    route, _, query = path.partition("?")
    status, _, text = pocket.answer("GET", route, None, None, dict([query.split("=")]) if query else None)
    assert status == 200 and _raw(text) == []
    if path.endswith("/hands"):
        given: Any = json.loads(answer.text)
        assert [h["id"] for h in given] == OSC_IDS  # escaped as JSON escapes them: the same value
