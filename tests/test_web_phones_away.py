"""The table as it really is, in a real headless Chromium at 360 × 740 against `mjcalc serve --host
0.0.0.0` (reached at 127.0.0.1), three phones: a phone that was offline catches up by itself; a write
with the network off is said and its entry kept; two phones record one hand at once and the loser is
told; the starter's season link, advise after a paste, the back button and a reload in the middle of a
hand. Chinese pages, as at the table.

Skips as tests/test_web_browser.py does where Chromium or Playwright is missing.
"""

from __future__ import annotations

import time
import urllib.parse
from typing import Any

import pytest
import test_web_phone as phone
from test_web_browser import HAND, PLAYERS
from test_web_phone import _send, api, begin, here, open_phone

pytestmark = pytest.mark.slow  # long: `pytest -m "not slow"` leaves it out (README)
network, browser = phone.network, phone.browser  # the fixtures: `mjcalc serve --host 0.0.0.0`, and Chromium

# 李 wins on 王's discard (HAND, tests/test_web_browser.py); two more hands for the others to record
SELF_DRAWN = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "1p", "5s", "5s", "5s"]  # 张, self-drawn
OTHER = ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "1s", "1s", "7s", "7s", "7s"]  # 赵 on 李's discard


def _game(pg: Any) -> tuple[int, str]:
    gid = int(pg.evaluate("document.body.dataset.game"))
    return gid, pg.evaluate(f"JSON.parse(localStorage.getItem('mjcalc.tokens'))[{gid}]")


def _join(browser: Any, url: str, gid: int, token: str, stream: bool = True) -> Any:
    """A phone that opens the game's link; with `stream` false its event stream is never answered (a
    connection that died without a word), so that it learns of changes only by its own means."""
    pg = open_phone(browser)
    if not stream:
        pg.route("**/api/games/*/events*", lambda route: None)
    pg.goto(f"{url}/?game={gid}&token={token}")
    pg.wait_for_selector("#entry:not([hidden])")
    if stream:
        pg.wait_for_selector("body[data-stream='open']")
    return pg


def _enter(pg: Any, winner: str, tiles: list[str], discarder: str | None = None) -> None:
    pg.click(f"#winners [data-player='{winner}']")
    if discarder is None:
        pg.check("[data-testid=self-draw]")
    else:
        pg.click(f"#discarders [data-player='{discarder}']")
    for tile in tiles:
        pg.click(f"#palette [data-tile='{tile}']")


def _hands(pg: Any) -> int:
    return int(pg.evaluate("document.querySelectorAll('#hand-list li').length"))


def _totals(pg: Any) -> dict[str, int]:
    return {p: int(t) for p, t in pg.evaluate(
        "[...document.querySelectorAll('[data-testid=standings] tr[data-player]')].map((r) => [r.dataset.player, r.querySelector('[data-testid=total]').textContent])")}


def test_a_phone_that_was_offline_catches_up_by_itself(network: Any, browser: Any) -> None:
    url, printed, _ = network
    a = open_phone(browser)
    begin(a, here(printed, url))
    gid, token = _game(a)
    assert a.get_attribute("body", "data-join") == "open"  # the QR panel opens on the phone that began the game
    assert a.input_value("[data-testid=me]") == PLAYERS[0]  # and that phone knows its player: the first name, as the form chose
    b = _join(browser, url, gid, token)
    c = _join(browser, url, gid, token, stream=False)  # no stream at all: the catch-up below is the page's `online`
    for joined in (b, c):  # closed on the joined phones (set once the page has read the game)
        joined.wait_for_selector("body[data-join='closed']", timeout=5_000)
    a.wait_for_selector("body[data-join='closed']", timeout=12_000)  # another phone has the game: the starter's panel closes

    c.context.set_offline(True)
    b.select_option("[data-testid=me]", "李")
    for n, (winner, discarder, tiles) in enumerate((("李", "王", HAND), ("张", None, SELF_DRAWN), ("赵", "李", OTHER)), 1):
        _enter(b, winner, tiles, discarder)
        b.click("[data-testid=record]")
        b.wait_for_function(f"document.querySelectorAll('#hand-list li').length === {n}")
    state = api(url, f"/api/games/{gid}", token)
    assert len(state["hands"]) == 3 and _hands(c) == 0
    a.wait_for_function("document.querySelectorAll('#hand-list li').length === 3")  # the phones online heard at once

    # back online: no tap, and within 5 s the standings, the hand list and the notice are the server's
    c.context.set_offline(False)
    c.wait_for_function("document.querySelectorAll('#hand-list li').length === 3 && document.querySelector('[data-testid=message]').dataset.notice",
                        timeout=5_000)
    assert _totals(c) == state["totals"] and _totals(c) != {p: 0 for p in PLAYERS}
    assert c.get_attribute("[data-testid=message]", "data-notice") == str(len(state["hands"]))  # the server's version
    values = [h["result"]["value"] for h in state["hands"]]  # (who recorded is known from the events this phone missed)
    assert c.inner_text("[data-testid=message]") == (f"第 1 局已记录: 王点炮, 李和, {values[0]} 番 · 第 2 局已记录: 张自摸, {values[1]} 番"
                                                     f" · 第 3 局已记录: 李点炮, 赵和, {values[2]} 番")
    # the phone that began the game knows its player: the others' notices of its changes name it
    assert "李 记录了第 3 局" in a.inner_text("[data-testid=message]")
    a.click("[data-testid=draw]")
    b.wait_for_function("document.querySelector('[data-testid=message]').textContent === '王 记录了第 4 局: 流局'")


def test_a_stalled_event_stream_is_opened_again_and_catches_up(network: Any, browser: Any) -> None:
    """The stream answers nothing (a connection that died without a word): past two heartbeats the page
    opens it again, and the change it missed is on screen."""
    url, _, _ = network
    made = _send(url, "POST", "/api/games", {"variant": "wuhu315", "players": PLAYERS, "dealer": "王"})
    gid, token = made["id"], made["token"]
    pg = open_phone(browser)
    held: list[Any] = []
    pg.route("**/api/games/*/events*", lambda route: held.append(route) if not held else route.continue_())
    pg.goto(f"{url}/?game={gid}&token={token}")
    pg.wait_for_selector("#entry:not([hidden])")
    _send(url, "POST", f"/api/games/{gid}/hands", {"draw": True}, token)
    assert _hands(pg) == 0 and len(held) == 1
    pg.wait_for_function("document.querySelectorAll('#hand-list li').length === 1", timeout=25_000)
    assert len(held) == 1  # the first stream was never answered: the page gave up on it and opened a second


def test_a_write_with_the_network_off_is_said_and_kept(network: Any, browser: Any) -> None:
    url, printed, _ = network
    pg = open_phone(browser)
    begin(pg, here(printed, url))
    gid, token = _game(pg)
    _enter(pg, "李", HAND, "王")
    pg.context.set_offline(True)
    pg.click("[data-testid=record]")
    pg.wait_for_selector("[data-testid=message][data-state=failed]")
    assert pg.inner_text("[data-testid=message]") == "第 1 局没有保存: 连不上服务器 (网络断了?)"
    assert pg.get_attribute("[data-testid=message]", "data-code") == "network"
    assert pg.is_visible("[data-testid=retry]") and pg.is_visible("[data-testid=unsaved]")
    assert pg.locator("#concealed .tile").count() == 14 and pg.locator("#winners button.on").inner_text() == "李"
    pg.context.set_offline(False)
    assert api(url, f"/api/games/{gid}", token)["hands"] == []

    pg.click("[data-testid=retry]")  # sent again, as it was made
    pg.wait_for_function("document.querySelectorAll('#hand-list li').length === 1")
    assert pg.inner_text("[data-testid=message]") == "已记录第 1 局"
    assert pg.locator("#concealed .tile").count() == 0 and pg.is_hidden("[data-testid=unsaved]") and pg.is_hidden("[data-testid=retry]")

    # again, and another phone records a draw meanwhile: back online, the draw is on screen, and the message that
    # hand 2 is not saved stays with its 重试; sent again, it meets the draw (409): kept, marked, and told so
    _enter(pg, "张", SELF_DRAWN)
    pg.context.set_offline(True)
    pg.click("[data-testid=record]")
    pg.wait_for_selector("[data-testid=message][data-state=failed]")
    failed = pg.inner_text("[data-testid=message]")
    _send(url, "POST", f"/api/games/{gid}/hands", {"draw": True}, token, player="赵")
    pg.context.set_offline(False)
    pg.wait_for_function("document.querySelectorAll('#hand-list li').length === 2")
    time.sleep(0.5)
    assert pg.inner_text("[data-testid=message]") == failed == "第 2 局没有保存: 连不上服务器 (网络断了?)"
    assert pg.is_visible("[data-testid=retry]")
    pg.click("[data-testid=retry]")
    pg.wait_for_selector("[data-testid=message][data-race=other]")
    said = pg.inner_text("[data-testid=message]")  # who recorded the draw is named when the page had it from the event stream
    assert said.startswith(("第 2 局没有保存: 这局刚刚先有了改动 (赵 记录了第 2 局: 流局)", "第 2 局没有保存: 这局刚刚先有了改动 (第 2 局已记录: 流局)")), said
    assert pg.locator("#concealed .tile").count() == 14 and pg.is_visible("[data-testid=unsaved]")
    pg.click("[data-testid=record]")
    pg.wait_for_function("document.querySelectorAll('#hand-list li').length === 3")
    assert [h.get("winner") for h in api(url, f"/api/games/{gid}/hands", token)] == ["李", None, "张"]

    # 503 busy: "saving…" while it waits, then said with a countdown, and sent again by itself
    held: list[Any] = []
    tries: list[float] = []

    def hands(route: Any) -> None:
        tries.append(time.monotonic())
        if len(tries) == 1:
            held.append(route)  # answered below, once "saving…" has been seen
        else:
            route.continue_()

    pg.route(f"**/api/games/{gid}/hands", hands)
    _enter(pg, "赵", OTHER, "李")
    pg.click("[data-testid=record]")
    pg.wait_for_selector("[data-testid=message][data-state=saving]")
    assert pg.inner_text("[data-testid=message]") == "正在保存第 4 局…"
    held[0].fulfill(status=503, headers={"retry-after": "2"}, json={"valid": False, "error": {"code": "busy", "message": "x"}})
    pg.wait_for_selector("[data-testid=message][data-state=waiting]")
    assert pg.inner_text("[data-testid=message]").startswith("第 4 局还没有保存: 服务器正忙, 请稍后再试; ")
    assert "秒后自动重试" in pg.inner_text("[data-testid=message]")
    pg.wait_for_function("document.querySelectorAll('#hand-list li').length === 4")
    assert len(tries) == 2 and tries[1] - tries[0] >= 1.9, tries
    assert len(api(url, f"/api/games/{gid}", token)["hands"]) == 4


def test_two_phones_record_one_hand_at_once_and_the_loser_is_told(network: Any, browser: Any) -> None:
    url, printed, _ = network
    a = open_phone(browser)
    begin(a, here(printed, url))
    gid, token = _game(a)
    b = _join(browser, url, gid, token)
    b.select_option("[data-testid=me]", "李")

    def race(first: Any, second: Any) -> None:
        """Both phones send against the same version; `first` reaches the game first."""
        held: dict[str, Any] = {}

        def hold(name: str) -> Any:
            return lambda route: held.__setitem__(name, route)

        for name, pg in (("first", first), ("second", second)):
            pg.route(f"**/api/games/{gid}/hands", hold(name))
        first.click("[data-testid=record]")
        second.click("[data-testid=record]")
        first.wait_for_selector("[data-testid=message][data-state=saving]")
        second.wait_for_selector("[data-testid=message][data-state=saving]")
        assert set(held) == {"first", "second"}
        before = len(api(url, f"/api/games/{gid}", token)["hands"])
        held["first"].continue_()
        first.wait_for_function(f"document.querySelectorAll('#hand-list li').length === {before + 1}")
        held["second"].continue_()
        for pg in (first, second):
            pg.unroute(f"**/api/games/{gid}/hands")

    # the same hand on both: the loser's entry is cleared, and it is told the hand was already recorded
    _enter(a, "李", HAND, "王")
    _enter(b, "李", HAND, "王")
    race(a, b)
    b.wait_for_selector("[data-testid=message][data-race=same]")
    said = b.inner_text("[data-testid=message]")
    assert said.startswith("第 1 局已经记录过了 (") and "王点炮, 李和" in said and said.endswith("), 不会重复记录"), said
    assert b.locator("#concealed .tile").count() == 0 and b.locator("#winners button.on").count() == 0
    b.click("[data-testid=record]")  # a second tap: nothing to record
    b.wait_for_function("document.querySelector('[data-testid=message]').textContent === '请选择和牌者'")
    assert len(api(url, f"/api/games/{gid}", token)["hands"]) == 1 and _hands(b) == 1

    # another hand on each: the loser keeps its entry, marked not saved, and no notice takes the place of the message
    _enter(a, "张", SELF_DRAWN)
    _enter(b, "赵", OTHER, "李")
    race(a, b)
    b.wait_for_selector("[data-testid=message][data-race=other]")
    refusal = b.inner_text("[data-testid=message]")
    assert refusal.startswith("第 2 局没有保存: 这局刚刚先有了改动 (") and "张自摸" in refusal, refusal
    assert b.locator("#concealed .tile").count() == 14 and b.is_visible("[data-testid=unsaved]")
    _send(url, "POST", f"/api/games/{gid}/hands", {"draw": True}, token, player="王")  # a third change, made elsewhere
    b.wait_for_function("document.querySelectorAll('#hand-list li').length === 3")
    time.sleep(0.5)
    assert b.inner_text("[data-testid=message]") == refusal
    b.click("[data-testid=record]")  # checked, and recorded as hand 4
    b.wait_for_function("document.querySelectorAll('#hand-list li').length === 4")
    assert [h.get("winner") for h in api(url, f"/api/games/{gid}/hands", token)] == ["李", "张", None, "赵"]


def test_the_small_walls(network: Any, browser: Any) -> None:
    """The starter's 赛季 link; advise after a paste of 汉字 tiles shows one table; back goes to the previous
    view; a half-entered hand survives a reload; the discarder asked for in the variant's own word."""
    url, printed, _ = network
    pg = open_phone(browser)
    begin(pg, here(printed, url))
    _, token = _game(pg)
    href = pg.get_attribute("[data-testid=season-link]", "href")  # the link of the phone that began the game: its token
    assert urllib.parse.parse_qs(urllib.parse.urlsplit(href).query)["token"] == [token]

    # a half-entered hand survives a reload (asked for in Wuhu's word: 点炮)
    pg.click("#winners [data-player='李']")
    for tile in HAND[:5]:
        pg.click(f"#palette [data-tile='{tile}']")
    pg.click("[data-testid=record]")
    assert pg.inner_text("[data-testid=message]") == "点炮: 请选择是谁, 或勾选自摸"
    pg.click("#discarders [data-player='王']")
    pg.reload()
    pg.wait_for_selector("body[data-ready='1']")
    assert pg.locator("#winners button.on").inner_text() == "李" and pg.locator("#discarders button.on").inner_text() == "王"
    assert [pg.locator("#concealed .tile").nth(i).get_attribute("data-tile") for i in range(5)] == HAND[:5]
    assert pg.locator("#concealed .tile").count() == 5
    for tile in HAND[5:]:
        pg.click(f"#palette [data-tile='{tile}']")
    pg.click("[data-testid=record]")
    pg.wait_for_function("document.querySelectorAll('#hand-list li').length === 1")
    assert pg.inner_text("#hand-list").startswith("王点炮, 李和, ")  # a Chinese sentence
    pg.reload()
    pg.wait_for_selector("body[data-ready='1']")
    assert pg.locator("#concealed .tile").count() == 0  # recorded: nothing kept

    # the 赛季 link opens the season of the games this phone has
    pg.click("[data-testid=season-link]")
    pg.wait_for_selector("[data-testid=standings] tr[data-player]")
    assert pg.get_attribute("[data-testid=season-summary]", "data-games") == "1"
    assert pg.locator("[data-testid=season-error]").is_hidden()
    pg.go_back()
    pg.wait_for_selector("body[data-ready='1']")

    # each view is a history entry: back goes to the previous view, not away from the page
    pg.click("[data-testid=tab-waits]")
    pg.click("[data-testid=tab-advise]")
    assert pg.is_visible("#advise") and pg.url.endswith("#advise")
    pg.go_back()
    pg.wait_for_selector("#waits:not([hidden])")
    assert pg.is_hidden("#advise") and pg.is_hidden("#play")
    pg.go_back()
    pg.wait_for_selector("#play:not([hidden])")
    assert pg.url.startswith(url) and pg.is_hidden("#waits")
    pg.go_forward()
    pg.wait_for_selector("#waits:not([hidden])")

    # advise: the paste box takes 汉字 tiles, its example is Chinese, and 粘贴 then 建议 shows one table
    pg.click("[data-testid=tab-advise]")
    assert pg.get_attribute("[data-testid=advise-paste]", "placeholder").startswith("例: 一二三")
    pasted = "一万二万三万四万五万六万七万一筒三筒九筒中中中五万"
    pg.select_option("[data-testid=advise-variant]", "wuhu315")
    pg.fill("[data-testid=advise-paste]", pasted)
    pg.click("[data-testid=advise-use]")
    pg.click("[data-testid=advise-go]")
    pg.wait_for_selector("#advise-table tr[data-tile]")
    pg.wait_for_function("document.querySelector('[data-testid=advise-count]').textContent === '14'")
    time.sleep(1)  # both answers are in
    assert pg.input_value("[data-testid=advise-paste]") == pasted  # not rewritten
    want = _send(url, "POST", "/api/advise", {"hand": pasted, "variant": "wuhu315"}, token)
    assert pg.locator("#advise-table th").count() == 4  # one head row
    assert pg.eval_on_selector_all("#advise-table tr[data-tile]", "rs => rs.map((r) => r.dataset.tile)") == [d["tile"] for d in want["discards"]]
