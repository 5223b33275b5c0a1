"""Every phone sees the game: two browser contexts (two phones) on one game, in a real
headless Chromium. A hand added on one shows on the other without a reload; so does a hand
added by the CLI; the page shows the game's join link and its QR code.

Skips as tests/test_web_browser.py does where Chromium or Playwright is missing.
"""

from __future__ import annotations

import json
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from installed import free_port, popen_installed, run_installed, stop, wait_until_serving
from test_web_browser import ARGS, CHROMIUM, HAND, PLAYERS, sync_api

WIN = "123456m13m99p555p2m"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path, subprocess.Popen[bytes]]]:
    db = tmp_path / "games.sqlite3"
    port = free_port()
    proc = popen_installed(["serve", "--port", str(port), "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wait_until_serving(proc, port)
    try:
        yield f"http://127.0.0.1:{port}", db, proc
    finally:
        stop(proc, timeout=10)


@pytest.fixture
def phones() -> Iterator[tuple[Any, Any]]:
    """Two pages in two browser contexts: two phones, sharing nothing but the server."""
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        errors: list[str] = []
        pages = []
        for _ in range(2):
            context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=1)
            pg = context.new_page()
            pg.on("pageerror", lambda e: errors.append(str(e)))
            pg.set_default_timeout(15_000)
            pages.append(pg)
        yield pages[0], pages[1]
        browser.close()
        assert errors == [], errors


def _hands_shown(pg: Any) -> int:
    return int(pg.evaluate("document.querySelectorAll('#hand-list li').length"))


def test_a_hand_added_on_one_phone_shows_on_the_other(phones: tuple[Any, Any], server: Any) -> None:
    url, db, _ = server
    one, two = phones
    done = run_installed(["game", "new", "--players", ",".join(PLAYERS), "--db", str(db), "--json"])
    gid = json.loads(done.stdout)["id"]
    for pg in (one, two):
        pg.goto(f"{url}/?lang=en&game={gid}")
        pg.wait_for_selector("body[data-ready='1']")
        pg.wait_for_selector("#entry:not([hidden])")
    assert _hands_shown(two) == 0

    # phone one records a hand; phone two shows it, never reloaded
    one.click("#winners [data-player='李']")
    one.click("#discarders [data-player='王']")
    for tile in HAND:
        one.click(f"#palette [data-tile='{tile}']")
    one.click("[data-testid=record]")
    one.wait_for_selector("[data-testid=value]")
    two.wait_for_function("document.querySelectorAll('#hand-list li').length === 1")
    assert two.evaluate("performance.getEntriesByType('navigation').length") == 1  # the same page, not a reload
    assert two.inner_text("[data-testid=standings]") == one.inner_text("[data-testid=standings]")

    # a hand added by the CLI shows on both
    assert run_installed(["game", "add", str(gid), "--draw", "--db", str(db)]).returncode == 0
    for pg in (one, two):
        pg.wait_for_function("document.querySelectorAll('#hand-list li').length === 2")

    # phone two, still at the version it saw, and phone one both undo: the second is refused, and told why
    with urllib.request.urlopen(f"{url}/api/games/{gid}") as answer:
        assert answer.headers["etag"] == '"2"'
    two.evaluate("S.version = 1")  # as if phone two had not yet heard of the CLI's hand
    two.click("[data-testid=undo]")
    two.wait_for_selector("[data-testid=message]:has-text('Someone else just changed this game')")
    assert _hands_shown(two) == 2  # nothing was taken back; the game as it stands

    # the join link and its QR code, for a game begun after serve started
    link = one.get_attribute("[data-testid=join-link]", "href")
    assert link == f"{url}/?game={gid}"
    assert one.locator("[data-testid=join-qr]").count() == 1


def test_serve_prints_the_link_of_each_new_game(server: Any) -> None:
    url, db, proc = server
    done = run_installed(["game", "new", "--players", ",".join(PLAYERS), "--db", str(db), "--json"])
    gid = json.loads(done.stdout)["id"]
    line = proc.stdout.readline().decode()  # the serving line
    assert "serving" in line
    line = proc.stdout.readline().decode()  # printed when the game appeared, without a restart
    assert line.strip() == f"game {gid} ({','.join(PLAYERS)}): {url}/?game={gid}"
