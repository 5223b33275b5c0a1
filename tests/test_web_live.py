"""Every phone sees the game: two browser contexts (two phones) on one game, in a real
headless Chromium. A hand added on one shows on the other without a reload; so does a hand
added by the CLI; the page shows the game's join link and its QR code.

Skips as tests/test_web_browser.py does where Chromium or Playwright is missing.
"""

from __future__ import annotations

import json
import re
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from installed import free_port, popen_installed, run_installed, stop, wait_until_serving
from test_web_browser import ARGS, CHROMIUM, HAND, PLAYERS, sync_api
from test_words import english_left

pytestmark = pytest.mark.slow  # long: `pytest -m "not slow"` leaves it out (README)

WIN = "123456m13m99p555p2m"


@pytest.fixture
def server(tmp_path: Path, servers: Any) -> tuple[str, Path, subprocess.Popen[bytes]]:
    db = tmp_path / "games.sqlite3"
    port, proc = servers(db=db, stdout=subprocess.PIPE)  # a test reads what it prints
    return f"http://127.0.0.1:{port}", db, proc


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
            pg.on("dialog", lambda d: d.accept())
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
    # as if phone two had not yet heard of the CLI's hand: its undo is sent against version 1
    two.route("**/undo", lambda route: route.continue_(headers={**route.request.headers, "if-match": '"1"'}))
    two.click("[data-testid=undo]")
    two.wait_for_selector("[data-testid=message]:has-text('Someone else just changed this game')")
    assert _hands_shown(two) == 2  # nothing was taken back; the game as it stands

    # the join link, for a game begun after serve started; on loopback no QR code, and how to let phones in
    link = one.get_attribute("[data-testid=join-link]", "href")
    assert link == f"{url}/?game={gid}"
    assert one.locator("[data-testid=join-qr]").count() == 0
    assert "mjcalc serve --host 0.0.0.0" in one.inner_text("[data-testid=join]")


def test_serve_prints_the_link_of_each_new_game(server: Any) -> None:
    url, db, proc = server
    done = run_installed(["game", "new", "--players", ",".join(PLAYERS), "--db", str(db), "--json"])
    gid = json.loads(done.stdout)["id"]
    line = proc.stdout.readline().decode()  # the serving line
    assert "serving" in line
    line = proc.stdout.readline().decode()  # printed when the game appeared, without a restart
    assert line.strip() == f"game {gid} ({','.join(PLAYERS)}): {url}/?game={gid}"


@pytest.fixture
def phone(phones: tuple[Any, Any]) -> Any:
    return phones[0]


def _new_game(pg: Any, url: str, variant: str) -> None:
    pg.goto(f"{url}/?lang=en")
    pg.wait_for_selector("body[data-ready='1']")
    pg.click("[data-testid=new-game-open]")
    for i, name in enumerate(PLAYERS):
        pg.fill(f"[data-testid=p{i}]", name)
    pg.select_option("[data-testid=variant]", variant)
    before = len(_api(url, "/api/games"))
    pg.click("[data-testid=start]")
    pg.wait_for_function(f"document.body.dataset.games === '{before + 1}' && document.body.dataset.variant === '{variant}'")


def _api(url: str, path: str) -> Any:
    with urllib.request.urlopen(url + path) as answer:
        return json.loads(answer.read())


def test_correct_a_hand_on_the_page(phone: Any, server: Any) -> None:
    url, db, _ = server
    pg = phone
    asked: list[str] = []
    pg.on("dialog", lambda d: asked.append(d.message))
    _new_game(pg, url, "wuhu315")
    gid = pg.eval_on_selector("[data-testid=game-select]", "s => s.value")

    # a fifth copy is refused as it is tapped, and the palette shows what is left
    pg.click("#winners [data-player='李']")
    pg.click("#discarders [data-player='王']")
    for _ in range(4):
        pg.click("#palette [data-tile='1m']")
    assert pg.get_attribute("#palette [data-tile='1m']", "data-left") == "0"
    assert pg.get_attribute("#palette [data-tile='2m']", "data-left") == "4"
    pg.click("#palette [data-tile='1m']")
    assert "All 4 copies of" in pg.inner_text("[data-testid=message]")
    assert pg.locator("#concealed .tile").count() == 4
    pg.click("[data-testid=clear]")

    # record a hand: its result, with the working, and the standings are at the top, in view
    pg.click("#winners [data-player='李']")
    pg.click("#discarders [data-player='王']")
    for tile in HAND:
        pg.click(f"#palette [data-tile='{tile}']")
    pg.click("[data-testid=record]")
    pg.wait_for_selector("[data-testid=value]")
    box = pg.locator("[data-testid=result]").bounding_box()
    assert box is not None and 0 <= box["y"] < 740
    scored = json.loads(run_installed(["score", WIN, "--discarder", "previous", "--json", "--lang", "en"]).stdout)  # the page speaks English here
    assert [pg.locator("[data-testid=detail]").nth(i).inner_text() for i in range(len(scored["items"]))] == [
        it.get("detail", "") for it in scored["items"]]
    pg.click("[data-testid=clear]")  # Clear takes the old result away
    assert pg.locator("[data-testid=value]").count() == 0

    # a draw asks first, naming the hand
    pg.click("[data-testid=draw]")
    pg.wait_for_function("document.querySelectorAll('#hand-list li').length === 2")
    assert asked[-1] == "Record hand 2 as a draw?"

    # tap hand 1: it opens with its tiles; 张 won it instead; save
    pg.click("#hand-list li[data-no='1'] button")
    pg.wait_for_selector("[data-testid=edit-bar]:not([hidden])")
    assert pg.locator("#concealed .tile").count() == 14
    pg.click("#winners [data-player='张']")
    pg.click("[data-testid=record]")
    pg.wait_for_function("document.querySelector('[data-testid=message]').textContent.includes('Hand 1 changed')")
    hands = _api(url, f"/api/games/{gid}/hands")
    assert hands[0] == {"winner": "张", "hand": "".join(HAND), "discarder": "王"} and hands[1] == {"draw": True}
    shown = json.loads(run_installed(["game", "show", gid, "--db", str(db), "--json"]).stdout)
    assert _api(url, f"/api/games/{gid}")["totals"] == shown["totals"]

    # delete hand 2, after saying which; undo asks too
    pg.click("#hand-list li[data-no='2'] button")
    pg.click("[data-testid=delete-hand]")
    pg.wait_for_function("document.querySelectorAll('#hand-list li').length === 1")
    assert asked[-1] == "Delete hand 2 (Draw)?"
    pg.click("[data-testid=undo]")
    pg.wait_for_function("document.querySelectorAll('#hand-list li').length === 0")
    assert asked[-1].startswith("Take back hand 1 (张 won, discard of 王, value ")
    assert "Took back hand 1" in pg.inner_text("[data-testid=message]")
    pg.click("[data-testid=redo]")
    pg.wait_for_function("document.querySelectorAll('#hand-list li').length === 1")
    assert "Put back hand 1" in pg.inner_text("[data-testid=message]")
    assert [e["kind"] for e in _api(url, f"/api/games/{gid}/history")] == ["hand", "hand", "edit", "delete", "undo", "redo"]


def test_the_others_part_of_a_hand(phone: Any, server: Any) -> None:
    """Chizhou: another player's exposed meld and who fed it, their 花; Pujiang: the 飘 round,
    the 财神; the waits view takes melds and the 财神."""
    url, _, _ = server
    pg = phone
    _new_game(pg, url, "chizhou")
    gid = pg.eval_on_selector("[data-testid=game-select]", "s => s.value")
    pg.click("#winners [data-player='李']")
    pg.click("#discarders [data-player='王']")
    pg.click("#modes [data-mode='pung']")
    pg.select_option("[data-testid=owner]", "赵")
    pg.select_option("[data-testid=source]", "张")
    pg.click("#palette [data-tile='6s']")
    assert pg.locator("#others-melds [data-meld='赵:666s']").count() == 1
    pg.fill("#others [data-hua='赵']", "2")
    pg.dispatch_event("#others [data-hua='赵']", "change")
    pg.select_option("[data-testid=owner]", "")
    pg.click("#modes [data-mode='hand']")
    for tile in ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1m", "1m", "9m", "9m", "9m"]:
        pg.click(f"#palette [data-tile='{tile}']")
    pg.click("[data-testid=record]")
    pg.wait_for_selector("[data-testid=value]")
    (hand,) = _api(url, f"/api/games/{gid}/hands")
    assert hand["exposed"] == {"赵": ["666s@张"]} and hand["hua"] == {"赵": 2}

    _new_game(pg, url, "pujiang")
    assert pg.locator("#others [data-field=piao_by]").count() == 1
    assert pg.locator("#extras [data-flag=wild]").count() == 1
    pg.select_option("#others [data-field=piao_by]", "赵")
    assert pg.locator("#others [data-field=piao_count]").count() == 1
    assert pg.locator("#others [data-field=sheng_zhang]").count() == 1

    pg.click("[data-testid=tab-waits]")
    pg.select_option("[data-testid=waits-variant]", "pujiang")
    pg.click("#waits-modes [data-mode='pung']")
    pg.click("#waits-palette [data-tile='7z']")
    pg.click("#waits-modes [data-mode='hand']")
    for tile in ["1m", "2m", "3m", "4m", "5m", "6m", "9p", "9p", "1s", "1s"]:
        pg.click(f"#waits-palette [data-tile='{tile}']")
    pg.select_option("[data-testid=waits-wild]", "1s")
    pg.click("[data-testid=waits-go]")
    pg.wait_for_selector("[data-testid=waits-table] tr[data-tile]")
    shown = [pg.locator("[data-testid=waits-table] tr[data-tile]").nth(i).get_attribute("data-tile")
             for i in range(pg.locator("[data-testid=waits-table] tr[data-tile]").count())]
    printed = json.loads(run_installed(["waits", "123456m99p11s", "-m", "777z", "-v", "pujiang", "--wild", "1s", "--json"]).stdout)
    assert shown == [w["tile"] for w in printed["waits"]] and shown


def test_the_page_speaks_its_language(phone: Any, server: Any) -> None:
    """An error from the server in the page's language, by its code; English labels in English."""
    url, _, _ = server
    pg = phone
    _new_game(pg, url, "wuhu315")
    assert "子" not in pg.inner_text("[data-testid=standings]") and "Chips" in pg.inner_text("[data-testid=standings]")
    pg.click("[data-testid=lang]")  # 中文
    pg.click("#winners [data-player='李']")
    pg.click("#discarders [data-player='王']")
    for tile in ["1m", "2m", "3m", "4m", "5m", "6m", "1m", "3m", "9p", "9p", "5p", "5p", "6p", "2m"]:  # not a win
        pg.click(f"#palette [data-tile='{tile}']")
    pg.click("[data-testid=record]")
    pg.wait_for_selector("[data-testid=message][data-code=not_a_winning_hand]")  # the code on the element, not in its words
    text = pg.inner_text("[data-testid=message]")
    assert re.search("[\u4e00-\u9fff]", text) and "--" not in text and not english_left(text), text
    assert "子" in pg.inner_text("[data-testid=standings]")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_screenshot_at_360_px(phone: Any, server: Any, tmp_path: Path, lang: str) -> None:
    """The page at 360 × 740 after a hand is recorded: its result and the standings at the top.
    With MJCALC_SCREENSHOTS=docs the pictures are kept as docs/serve-zh.png and docs/serve-en.png."""
    import os
    import shutil

    url, _, _ = server
    pg = phone
    _new_game(pg, url, "wuhu315")
    if lang == "zh":
        pg.click("[data-testid=lang]")
    pg.click("#winners [data-player='李']")
    pg.click("#discarders [data-player='王']")
    for tile in HAND:
        pg.click(f"#palette [data-tile='{tile}']")
    pg.click("[data-testid=record]")
    pg.wait_for_selector("[data-testid=value]")
    assert pg.evaluate("document.documentElement.scrollWidth") <= 360
    text = pg.inner_text("body")
    assert ("计分并记录" in text) == (lang == "zh") and ("Score & record" in text) == (lang == "en")
    shot = tmp_path / f"serve-{lang}.png"
    pg.screenshot(path=str(shot))
    assert shot.stat().st_size > 1000
    keep = os.environ.get("MJCALC_SCREENSHOTS")
    if keep:
        shutil.copy(shot, Path(keep) / shot.name)


def test_on_a_network_a_game_begun_on_a_phone_gets_its_link_at_once(phones: tuple[Any, Any], tmp_path: Path) -> None:
    """`serve --host 0.0.0.0`: a game begun on a phone is printed with its token without a restart,
    and that phone lists both the game it came in by and the one it began."""
    db = tmp_path / "games.sqlite3"
    first = json.loads(run_installed(["game", "new", "--players", ",".join(PLAYERS), "--db", str(db), "--json"]).stdout)["id"]
    port = free_port("0.0.0.0")
    proc = popen_installed(["serve", "--host", "0.0.0.0", "--port", str(port), "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert "serving" in proc.stdout.readline().decode()
        line = proc.stdout.readline().decode().strip()
        assert line.startswith(f"game {first} (") and "&token=" in line
        token = line.rsplit("&token=", 1)[1]
        assert "begin a game on any phone" in proc.stdout.readline().decode()  # the start link, last
        url = f"http://127.0.0.1:{port}"
        wait_until_serving(proc, port)  # /api/variants answers without a token
        pg, _ = phones
        pg.goto(f"{url}/?lang=en&game={first}&token={token}")
        pg.wait_for_selector("body[data-ready='1']")
        pg.click("[data-testid=new-game-open]")
        for i, name in enumerate(["甲", "乙", "丙", "丁"]):
            pg.fill(f"[data-testid=p{i}]", name)
        pg.click("[data-testid=start]")
        pg.wait_for_function("document.body.dataset.games === '2' && document.querySelector('#winners [data-player]')?.dataset.player === '甲'")
        options = pg.locator("[data-testid=game-select] option")
        assert options.count() == 3  # the two games, and the prompt
        printed = proc.stdout.readline().decode().strip()  # no restart: the new game's own link
        second = pg.evaluate("Number(document.body.dataset.game)")
        own = pg.evaluate(f"JSON.parse(localStorage.getItem('mjcalc.tokens'))[{second}]")
        assert printed.startswith(f"game {second} (甲,乙,丙,丁): http://") and printed.endswith(f"?game={second}&token={own}")
        assert pg.get_attribute("[data-testid=join-link]", "href").endswith(f"?game={second}&token={own}")
    finally:
        stop(proc, timeout=10)
