"""A game begun from a phone, in a real headless Chromium at 360 × 740 against `mjcalc serve
--host 0.0.0.0`: phone A opens the link serve prints, begins the game and shows its QR code at
the top; phone B opens the QR's link and records a hand; A is told who recorded what; a third
browser without the token reads and writes nothing. On loopback the join panel says how to let
other phones in, with no QR. Refusals (429, 503) are said in the page's language.

Skips as tests/test_web_browser.py does where Chromium or Playwright is missing.
"""

from __future__ import annotations

import json
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from installed import free_port, popen_installed, stop, wait_until_serving
from test_web_browser import ARGS, CHROMIUM, HAND, PLAYERS, sync_api

from mahjong_calc.web.routes_games import qr_svg

pytestmark = pytest.mark.slow  # long: `pytest -m "not slow"` leaves it out (README)

SCREEN = {"width": 360, "height": 740}


@pytest.fixture
def network(tmp_path: Path) -> Iterator[tuple[str, str, Path]]:
    """`mjcalc serve --host 0.0.0.0` on a free port, reached at 127.0.0.1; and the start link it printed."""
    db = tmp_path / "games.sqlite3"
    port = free_port("0.0.0.0")
    proc = popen_installed(["serve", "--host", "0.0.0.0", "--port", str(port), "--db", str(db)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_until_serving(proc, port)
        assert proc.stdout is not None
        proc.stdout.readline()  # serving ...
        line = proc.stdout.readline().decode()  # no game yet: the start link alone
        printed = next(w for w in line.split() if w.startswith("http://"))
        yield f"http://127.0.0.1:{port}", printed, db
    finally:
        stop(proc, timeout=10)


@pytest.fixture
def loopback(servers: Any) -> str:
    port, _ = servers()
    return f"http://127.0.0.1:{port}"


@pytest.fixture
def browser() -> Iterator[tuple[Any, list[str]]]:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        errors: list[str] = []
        yield chromium, errors
        chromium.close()
        assert errors == [], errors


def open_phone(browser: tuple[Any, list[str]]) -> Any:
    chromium, errors = browser
    context = chromium.new_context(viewport=SCREEN, device_scale_factor=1)
    pg = context.new_page()
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("dialog", lambda d: d.accept())
    pg.set_default_timeout(15_000)
    return pg


def here(link: str, url: str) -> str:
    """A link that names the server's LAN address, sent to 127.0.0.1 (this test's only network)."""
    parts = urllib.parse.urlsplit(link)
    return f"{url}{parts.path}?{parts.query}"


def begin(pg: Any, url: str) -> None:
    pg.goto(url)
    pg.wait_for_selector("body[data-ready='1']")
    assert pg.is_visible("[data-testid=new-game]")  # the link serve prints opens the form at once
    for i, name in enumerate(PLAYERS):
        pg.fill(f"[data-testid=p{i}]", name)
    pg.select_option("[data-testid=variant]", "wuhu315")
    pg.click("[data-testid=start]")
    pg.wait_for_selector("[data-testid=join-qr]")


def record(pg: Any, winner: str, discarder: str, tiles: list[str]) -> None:
    pg.click(f"#winners [data-player='{winner}']")
    pg.click(f"#discarders [data-player='{discarder}']")
    for tile in tiles:
        pg.click(f"#palette [data-tile='{tile}']")
    pg.click("[data-testid=record]")
    pg.wait_for_selector("[data-testid=value]")


def api(url: str, path: str, token: str) -> Any:
    with urllib.request.urlopen(f"{url}{path}?token={token}", timeout=10) as answer:
        return json.loads(answer.read())


def test_a_game_begun_on_one_phone_is_joined_by_qr_and_told_to_the_other(network: Any, browser: Any) -> None:
    url, printed, _ = network
    assert urllib.parse.urlsplit(printed).query == "new=1" and not printed.startswith("http://127.")
    a = open_phone(browser)
    begin(a, here(printed, url))

    # the QR code, at the top of the screen, without scrolling
    box = a.locator("[data-testid=join-qr]").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= SCREEN["height"], box
    assert a.evaluate("window.scrollY") == 0
    link = a.get_attribute("[data-testid=join-link]", "href")
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)
    gid, token = int(query["game"][0]), query["token"][0]
    assert token == a.evaluate(f"JSON.parse(localStorage.getItem('mjcalc.tokens'))[{gid}]")
    # the QR code is that link's: the SVG the server makes of it, and not of another one
    src = a.get_attribute("[data-testid=join-qr]", "src")
    svg = urllib.parse.unquote(src.split(",", 1)[1])
    assert svg == qr_svg(link) and svg != qr_svg(link.replace(token, token[::-1]))

    # phone B opens the QR's link, says who holds it, and records a hand
    b = open_phone(browser)
    b.goto(here(link, url))
    b.wait_for_selector("body[data-ready='1']")
    b.wait_for_selector("#entry:not([hidden])")
    assert b.evaluate("document.body.dataset.game") == str(gid)
    b.select_option("[data-testid=me]", "李")
    record(b, "李", "王", HAND)
    value = api(url, f"/api/games/{gid}", token)["hands"][0]["result"]["value"]

    # A is told, in place of its own old message, who recorded what, in one sentence in Wuhu's word (点炮)
    a.wait_for_selector("[data-testid=message][data-notice]")
    assert a.inner_text("[data-testid=message]") == f"李 记录了第 1 局: 王点炮, 李和, {value} 番"
    assert a.evaluate("document.querySelectorAll('#hand-list li').length") == 1
    message = a.locator("[data-testid=message]").bounding_box()
    assert message is not None and message["y"] + message["height"] <= SCREEN["height"]

    # B takes it back: A hears that too; B, which made both changes, is told nothing of them
    b.click("[data-testid=undo]")
    b.wait_for_function("document.querySelectorAll('#hand-list li').length === 0")
    a.wait_for_function("document.querySelector('[data-testid=message]').textContent === '李 撤销了第 1 局'")
    assert b.get_attribute("[data-testid=message]", "data-notice") is None

    # a third phone, without the token, reads and writes nothing
    c = open_phone(browser)
    request = c.context.request
    assert request.get(f"{url}/api/games").json() == []
    for path in (f"/api/games/{gid}", f"/api/games/{gid}/hands", f"/api/games/{gid}/history", f"/api/games/{gid}/join",
                 f"/api/games/{gid}/export", f"/api/games/{gid}/events", "/api/season"):
        assert request.get(f"{url}{path}").status == 401, path
    assert request.get(f"{url}/api/games/{gid}", params={"token": "x" * 16}).status == 403
    for method, path in (("post", "hands"), ("post", "undo"), ("post", "redo"), ("put", "hands/1"), ("delete", "hands/1")):
        answer = getattr(request, method)(f"{url}/api/games/{gid}/{path}", data={"winner": "李", "discarder": "王", "hand": "".join(HAND)})
        assert answer.status == 401, (method, path, answer.text())
    c.goto(f"{url}/?game={gid}")
    c.wait_for_selector("body[data-ready='1']")
    assert c.evaluate("document.body.dataset.game") == "" and c.inner_text("[data-testid=standings]") == ""
    assert len(api(url, f"/api/games/{gid}/history", token)) == 2  # the hand and its undo: nothing more


def test_on_loopback_the_join_panel_says_how_to_let_phones_in(loopback: str, browser: Any) -> None:
    pg = open_phone(browser)
    pg.goto(f"{loopback}/?new=1")
    pg.wait_for_selector("body[data-ready='1']")
    for i, name in enumerate(PLAYERS):
        pg.fill(f"[data-testid=p{i}]", name)
    pg.click("[data-testid=start]")
    pg.wait_for_selector("[data-testid=join-local]")
    assert "mjcalc serve --host 0.0.0.0" in pg.inner_text("[data-testid=join]")
    assert pg.locator("[data-testid=join-qr]").count() == 0
    assert pg.is_hidden("[data-testid=join-toggle]")


def test_refusals_are_said_in_the_page_language_and_the_stream_waits_its_retry_after(network: Any, browser: Any) -> None:
    url, printed, _ = network
    pg = open_phone(browser)
    refusal = {"valid": False, "error": {"code": "too_many_games", "message": "this phone has begun 5 games in the last minute"}}
    pg.route("**/api/games", lambda route: route.fulfill(status=429, headers={"retry-after": "30"}, json=refusal)
             if route.request.method == "POST" else route.continue_())
    pg.goto(here(printed, url))
    pg.wait_for_selector("body[data-ready='1']")
    for i, name in enumerate(PLAYERS):
        pg.fill(f"[data-testid=p{i}]", name)
    pg.click("[data-testid=start]")
    pg.wait_for_selector("[data-testid=message][data-code=too_many_games]")  # the code on the element, not in the words
    assert pg.inner_text("[data-testid=message]") == "最近开的牌局太多, 请稍后再试 (30 秒后再试)"

    # the event stream refused twice (429, then 503): said, tried again after Retry-After, then open
    pg.unroute("**/api/games")
    tries: list[float] = []
    busy = [(429, "too_many_streams"), (503, "busy")]

    def events(route: Any) -> None:
        tries.append(time.monotonic())
        if busy:
            status, code = busy.pop(0)
            route.fulfill(status=status, headers={"retry-after": "1"}, json={"valid": False, "error": {"code": code, "message": "x"}})
        else:
            route.continue_()

    pg.route("**/api/games/*/events*", events)
    pg.click("[data-testid=start]")
    pg.wait_for_selector("body[data-stream='refused']")
    said = pg.inner_text("[data-testid=message]")
    code = pg.get_attribute("[data-testid=message]", "data-code")
    assert said.startswith("暂时收不到别人的修改: ") and code in ("too_many_streams", "busy") and code not in said, said
    pg.wait_for_selector("body[data-stream='open']", timeout=10_000)
    assert pg.inner_text("[data-testid=message]") == ""  # open again: the refusal is no longer said

    # a change made elsewhere, and the game's state refused once (503 busy): said, then asked again and told
    gid = int(pg.evaluate("document.body.dataset.game"))
    token = pg.evaluate(f"JSON.parse(localStorage.getItem('mjcalc.tokens'))[{gid}]")
    once = [True]

    def state(route: Any) -> None:
        if once and route.request.method == "GET":
            once.clear()
            route.fulfill(status=503, headers={"retry-after": "1"}, json={"valid": False, "error": {"code": "busy", "message": "x"}})
        else:
            route.continue_()

    pg.route(f"**/api/games/{gid}", state)
    _send(url, "POST", f"/api/games/{gid}/hands", {"draw": True}, token)
    _told(pg, "服务器正忙, 请稍后再试 (1 秒后再试)")  # its code on the element (data-code), not in the words
    assert pg.get_attribute("[data-testid=message]", "data-code") == "busy"
    _told(pg, "第 1 局已记录: 流局")
    assert len(tries) == 3 and tries[1] - tries[0] >= 0.9 and tries[2] - tries[1] >= 0.9, tries


def _send(url: str, method: str, path: str, body: Any = None, token: str | None = None, player: str | None = None) -> Any:
    headers = {"content-type": "application/json"}
    if token:
        headers["x-mjcalc-token"] = token
    if player:
        headers["x-mjcalc-player"] = urllib.parse.quote(player)
    data = None if body is None else json.dumps(body).encode()
    with urllib.request.urlopen(urllib.request.Request(f"{url}{path}", data=data, method=method, headers=headers), timeout=30) as answer:
        return json.loads(answer.read())


def _told(pg: Any, text: str) -> None:
    pg.wait_for_function("(want) => document.querySelector('[data-testid=message]').textContent === want", arg=text)


CHIZHOU_WIN = {"winner": "李", "hand": "789m99m", "melds": ["123m@王", "456m@王", "777m@王"],
               "exposed": {"王": ["123p@李", "456p@李", "789p@李"]}}
PUJIANG_ROB = {"winner": "甲", "hand": "111m222p456s77z7s8s9s", "robbing_kong": True, "discarder": "丙",
               "exposed": {"乙": ["555p@丙"], "丙": ["3333m@丁"]}}


def test_the_notices_speak_each_variant_and_name_every_kind_of_change(network: Any, browser: Any) -> None:
    """Changes made elsewhere (here: the API, as another phone or a script would): each told in
    one line on the phone that did not make them, in the variant's words (Chizhou 放冲, Pujiang
    has no discard wins: 被抢杠), naming the player when the change named one."""
    url, _, _ = network
    chizhou = _send(url, "POST", "/api/games", {"variant": "chizhou", "players": PLAYERS, "dealer": "李"})
    pujiang = _send(url, "POST", "/api/games", {"variant": "pujiang", "players": ["甲", "乙", "丙", "丁"], "dealer": "丁"})
    pg = open_phone(browser)
    game, token = chizhou["id"], chizhou["token"]
    pg.goto(f"{url}/?game={game}&token={token}")
    pg.wait_for_selector("#entry:not([hidden])")
    hands = f"/api/games/{game}/hands"

    state = _send(url, "POST", hands, {**CHIZHOU_WIN, "discarder": "张"}, token)
    _told(pg, f"第 1 局已记录: 张放冲, 李和, {state['hands'][0]['result']['value']} 番")
    state = _send(url, "PUT", f"{hands}/1", {**CHIZHOU_WIN, "discarder": "赵"}, token, player="赵")
    _told(pg, f"赵 修改了第 1 局: 赵放冲, 李和, {state['hands'][0]['result']['value']} 番")
    _send(url, "POST", hands, {"draw": True}, token, player="赵")
    _told(pg, "赵 记录了第 2 局: 流局")
    _send(url, "DELETE", f"{hands}/2", None, token)
    _told(pg, "第 2 局已删除")
    _send(url, "POST", f"/api/games/{game}/undo", None, token, player="not a player")  # a name not in the game: not named
    _told(pg, "第 1 局已撤销")
    _send(url, "POST", f"/api/games/{game}/redo", None, token, player="王")
    _told(pg, "王 恢复了第 1 局")
    assert pg.evaluate("document.querySelectorAll('#hand-list li').length") == 1

    pg.goto(f"{url}/?lang=en&game={pujiang['id']}&token={pujiang['token']}")
    pg.wait_for_selector("#entry:not([hidden])")
    state = _send(url, "POST", f"/api/games/{pujiang['id']}/hands", PUJIANG_ROB, pujiang["token"], player="乙")
    _told(pg, f"乙 recorded hand 1: 甲 won, 丙's kong robbed, value {state['hands'][0]['result']['value']}")
