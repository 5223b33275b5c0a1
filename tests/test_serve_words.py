"""`mjcalc serve` as a phone and a person meet it: its start-up lines in the person's language (the
catalogue's, as every other text), and the heartbeat of a game's event stream, which the page reads
to know its stream is alive and what version the game is at."""

from __future__ import annotations

import json
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from installed import free_port, popen_installed, run_installed, stop, wait_until_serving

pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install '.[web]')")

PLAYERS = ["王", "李", "张", "赵"]


def _start_lines(db: Path, env: dict[str, str]) -> list[str]:
    port = free_port("0.0.0.0")
    proc = popen_installed(["serve", "--host", "0.0.0.0", "--port", str(port), "--db", str(db)], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_until_serving(proc, port)
        assert proc.stdout is not None
        return [proc.stdout.readline().decode("utf-8").rstrip("\n") for _ in range(3)]
    finally:
        stop(proc, timeout=10)


@pytest.mark.parametrize(("env", "first", "game", "last"), [
    ({"LANG": "zh_CN.UTF-8", "LC_ALL": "", "MJCALC_LANG": ""}, "mjcalc: 正在提供 {db} 的牌局, 地址 ", "  牌局 1 (王,李,张,赵): http://",
     "mjcalc: 在本网络的任何一部手机上开新牌局: {base}?new=1  (每局的链接随后显示在这里)"),
    ({"LANG": "C.UTF-8", "LC_ALL": "", "MJCALC_LANG": ""}, "mjcalc: serving {db} on ", "  game 1 (王,李,张,赵): http://",
     "mjcalc: begin a game on any phone of this network: {base}?new=1  (each game's link then shows here)"),
    ({"LANG": "C.UTF-8", "LC_ALL": "", "MJCALC_LANG": "zh"}, "mjcalc: 正在提供 {db} 的牌局, 地址 ", "  牌局 1 (王,李,张,赵): http://",
     "mjcalc: 在本网络的任何一部手机上开新牌局: {base}?new=1  (每局的链接随后显示在这里)"),
])
def test_serve_says_its_start_in_the_language_of_the_locale(tmp_path: Path, env: dict[str, str], first: str, game: str, last: str) -> None:
    db = tmp_path / "games.sqlite3"
    assert run_installed(["game", "new", "--players", ",".join(PLAYERS), "--db", str(db)]).returncode == 0
    lines = _start_lines(db, env)
    assert lines[0].startswith(first.format(db=db)), lines
    base = lines[0].split("http://", 1)[1].split()[0]
    assert lines[1].startswith(game) and "&token=" in lines[1], lines
    assert lines[2] == last.format(base=f"http://{base}"), lines


@pytest.mark.slow
def test_an_event_stream_says_its_heartbeat_at_once_and_when_quiet(tmp_path: Path) -> None:
    """`: heartbeat {"version", "streams", "every"}` after `ready`, and again after `every` seconds of quiet;
    a comment, so that `EventSource` and other readers of the events skip it."""
    db = tmp_path / "games.sqlite3"
    gid = json.loads(run_installed(["game", "new", "--players", ",".join(PLAYERS), "--db", str(db), "--json"]).stdout)["id"]
    port = free_port()
    proc = popen_installed(["serve", "--port", str(port), "--db", str(db)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until_serving(proc, port)
        url = f"http://127.0.0.1:{port}/api/games/{gid}/events"
        with urllib.request.urlopen(url, timeout=30) as first, urllib.request.urlopen(url, timeout=30) as second:
            def beats(stream: object, n: int) -> list[tuple[float, dict[str, object]]]:
                out = []
                for raw in stream:  # type: ignore[attr-defined]
                    line = raw.decode().rstrip("\n")
                    if line.startswith(": heartbeat "):
                        out.append((time.monotonic(), json.loads(line[len(": heartbeat "):])))
                        if len(out) == n:
                            return out
                return out

            began = time.monotonic()
            opened = beats(first, 1)
            assert opened[0][1] == {"version": 0, "streams": 1, "every": 5.0} and opened[0][0] - began < 4.5  # at once, not after 5 s
            assert beats(second, 1)[0][1]["streams"] == 2  # another page follows the game
            assert run_installed(["game", "add", str(gid), "--draw", "--db", str(db)]).returncode == 0
            later = beats(first, 3)  # a heartbeat may come before the change is seen; then the change's version
            assert later[-1][1] == {"version": 1, "streams": 2, "every": 5.0}, later
            assert 4.5 <= later[-1][0] - later[-2][0] < 15, later  # every 5 s of quiet
    finally:
        stop(proc, timeout=10)
