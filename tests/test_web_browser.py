"""The page in a real headless Chromium: start a game, tap a hand, see its value,
undo, see the chart and the waits, at 360 px wide; and the totals it shows are what
`mjcalc game settle` gives for the game's export.

Runs the installed `mjcalc serve` in a subprocess. Skips, saying why, where the
system Chromium (/usr/bin/chromium) or Playwright is missing (under CI=true, fails). Set MJCALC_SCREENSHOT
to a file path to keep the screenshot (docs/serve.md's serve.png is made that way).
"""

from __future__ import annotations

import json
import os
import shutil
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from installed import run_installed

pytestmark = pytest.mark.slow  # long: `pytest -m "not slow"` leaves it out (README)

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

# .ci/run installs both: under CI=true a missing one fails the run instead of skipping unseen
IN_CI = os.environ.get("CI", "").lower() in ("true", "1")
if not CHROMIUM.exists():
    if IN_CI:
        raise RuntimeError("CI: no system Chromium at /usr/bin/chromium; .ci/run should have installed it")
    pytest.skip("no system Chromium at /usr/bin/chromium (apt-get install chromium)", allow_module_level=True)
if IN_CI:
    import playwright.sync_api  # noqa: F401  (in CI, a missing Playwright is an error, not a skip)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")
pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install '.[web]')")

PLAYERS = ["王", "李", "张", "赵"]
# 李 wins on 王's discard: 123456m 13m 99p 555p, winning tile 2m (tapped last)
HAND = ["1m", "2m", "3m", "4m", "5m", "6m", "1m", "3m", "9p", "9p", "5p", "5p", "5p", "2m"]
SELF_DRAW = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "1p"]  # and a pung of 5s fed by 李
WAITS = ["1m", "2m", "3m", "4m", "5m", "6m", "1m", "3m", "9p", "9p", "5p", "5p", "5p"]


@pytest.fixture
def server(tmp_path: Path, servers: Any) -> tuple[str, Path]:
    db = tmp_path / "games.sqlite3"
    port, _ = servers(db=db)
    return f"http://127.0.0.1:{port}", db


@pytest.fixture
def page(server: tuple[str, Path]) -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=1)
        pg = context.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.on("dialog", lambda d: d.accept())  # the page asks before 流局, undo and delete
        pg.set_default_timeout(15_000)
        yield pg
        browser.close()
        assert errors == [], errors


def _tap(pg: Any, container: str, tiles: list[str]) -> None:
    for tile in tiles:
        pg.click(f"{container} [data-tile='{tile}']")


def _totals(pg: Any) -> dict[str, int]:
    rows = pg.locator("[data-testid=standings] tr[data-player]")
    return {rows.nth(i).get_attribute("data-player"): int(rows.nth(i).locator("[data-testid=total]").inner_text())
            for i in range(rows.count())}


def test_a_game_at_the_table(page: Any, server: tuple[str, Path], tmp_path: Path) -> None:
    url, db = server
    pg = page
    pg.goto(f"{url}/?lang=en")
    pg.wait_for_selector("body[data-ready='1']")
    assert pg.evaluate("document.documentElement.scrollWidth") <= 360  # nothing sticks out at 360 px

    # start a game
    pg.click("[data-testid=new-game-open]")
    for i, name in enumerate(PLAYERS):
        pg.fill(f"[data-testid=p{i}]", name)
    pg.select_option("[data-testid=variant]", "wuhu315")
    pg.click("[data-testid=start]")
    pg.wait_for_selector("#entry:not([hidden])")

    # the variant's other flags: Wuhu has 天胡, not Pujiang's 财神
    assert pg.locator("#extras [data-flag=heavenly]").count() == 1
    assert pg.locator("#extras [data-flag=wild]").count() == 0

    # tap a hand: 李 wins on 王's discard
    pg.click("#winners [data-player='李']")
    pg.click("#discarders [data-player='王']")
    _tap(pg, "#palette", HAND)
    assert pg.locator("#concealed .tile").count() == 14
    assert pg.locator("#concealed .tile.win").get_attribute("data-tile") == "2m"
    pg.click("[data-testid=record]")
    pg.wait_for_selector("[data-testid=value]")
    scored = run_installed(["score", "123456m13m99p555p2m", "--discarder", "previous", "--json"])
    value = json.loads(scored.stdout)["value"]
    assert pg.inner_text("[data-testid=value]") == f"Value {value}"
    first = _totals(pg)
    assert first["李"] > 0 and sum(first.values()) == 0

    # a second hand, self-drawn by 张, with a pung fed by 李
    pg.click("#winners [data-player='张']")
    pg.check("[data-testid=self-draw]")
    pg.click("#modes [data-mode='pung']")
    pg.select_option("[data-testid=source]", "李")
    _tap(pg, "#palette", ["5s"])
    assert pg.locator("#melds [data-meld='555s']").count() == 1
    pg.click("#modes [data-mode='hand']")
    _tap(pg, "#palette", SELF_DRAW)
    pg.click("[data-testid=record]")
    pg.wait_for_function("document.querySelectorAll('#hand-list li').length === 2")
    two = _totals(pg)
    assert two != first

    # the chart: one line per player, over the hands
    lines = pg.locator("[data-testid=chart-svg] polyline")
    assert lines.count() == 4
    assert len(lines.first.get_attribute("points").split()) == 3  # the start and two hands

    shot = tmp_path / "page.png"
    pg.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 1000
    keep = os.environ.get("MJCALC_SCREENSHOT")
    if keep:
        shutil.copy(shot, keep)

    # the page's totals are what `mjcalc game settle` gives for the export
    gid = pg.eval_on_selector("[data-testid=game-select]", "s => s.value")
    with urllib.request.urlopen(f"{url}/api/games/{gid}/export") as response:
        (tmp_path / "game.yaml").write_bytes(response.read())
    settled = run_installed(["game", "settle", str(tmp_path / "game.yaml"), "--json"])
    assert settled.returncode == 0, settled.stderr
    assert json.loads(settled.stdout)["totals"] == two

    # undo takes the second hand back
    pg.click("[data-testid=undo]")
    pg.wait_for_function("document.querySelectorAll('#hand-list li').length === 1")
    assert _totals(pg) == first
    assert len(pg.locator("[data-testid=chart-svg] polyline").first.get_attribute("points").split()) == 2
    shown = run_installed(["game", "show", gid, "--db", str(db), "--json"])
    assert json.loads(shown.stdout)["totals"] == first

    # Chinese
    pg.click("[data-testid=lang]")
    assert pg.inner_text("[data-testid=record]") == "计分并记录"
    assert "积分" in pg.inner_text("[data-testid=standings]")


def test_waits_view(page: Any, server: tuple[str, Path]) -> None:
    url, _ = server
    pg = page
    pg.goto(f"{url}/?lang=en")
    pg.wait_for_selector("body[data-ready='1']")
    pg.click("[data-testid=tab-waits]")
    pg.select_option("[data-testid=waits-variant]", "wuhu315")
    _tap(pg, "#waits-palette", WAITS)
    pg.click("[data-testid=waits-go]")
    pg.wait_for_selector("[data-testid=waits-table] tr[data-tile]")
    shown = [pg.locator("[data-testid=waits-table] tr[data-tile]").nth(i).get_attribute("data-tile")
             for i in range(pg.locator("[data-testid=waits-table] tr[data-tile]").count())]
    printed = json.loads(run_installed(["waits", "123456m13m99p555p", "--json"]).stdout)
    assert shown == [w["tile"] for w in printed["waits"]]


# 一炮多响 in Chizhou: 李 and 张 both win on 王's discard, each with their own tiles
LI_TILES = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1m", "1m", "9m", "9m", "9m"]
ZHANG_TILES = ["1p", "1p", "1p", "2p", "2p", "2p", "3s", "3s", "3s", "5s", "5s"]  # and a pung of 4s fed by 赵


def test_several_winners_on_one_discard(page: Any, server: tuple[str, Path], tmp_path: Path) -> None:
    url, _ = server
    pg = page
    pg.goto(f"{url}/?lang=en")
    pg.wait_for_selector("body[data-ready='1']")
    pg.click("[data-testid=new-game-open]")
    for i, name in enumerate(PLAYERS):
        pg.fill(f"[data-testid=p{i}]", name)
    pg.select_option("[data-testid=variant]", "chizhou")
    pg.click("[data-testid=start]")
    pg.wait_for_selector("#entry:not([hidden])")

    pg.check("[data-testid=multi]")
    assert pg.is_hidden("#self-draw-wrap")  # 一炮多响 is on a discard
    pg.click("#winners [data-player='李']")
    _tap(pg, "#palette", LI_TILES)
    pg.click("#winners [data-player='张']")
    assert pg.locator("#concealed .tile").count() == 0  # 张's own tiles, empty so far
    assert "张" in pg.inner_text("[data-testid=editing]")
    pg.click("#modes [data-mode='pung']")
    pg.select_option("[data-testid=source]", "赵")
    _tap(pg, "#palette", ["4s"])
    pg.click("#modes [data-mode='hand']")
    _tap(pg, "#palette", ZHANG_TILES[:-1])  # one tile short
    assert pg.locator("#winners button.on").count() == 2
    assert pg.locator("#discarders [data-player='李'], #discarders [data-player='张']").count() == 0
    pg.click("#discarders [data-player='王']")

    # back to 李: his tiles are kept
    pg.click("#winners [data-player='李']")
    assert pg.locator("#concealed .tile").count() == 14
    pg.click("#winners [data-player='张']")
    assert pg.locator("#concealed .tile").count() == 10 and pg.locator("#melds [data-meld='444s']").count() == 1

    # an error in 张's tiles names 张, and nothing is recorded
    pg.click("[data-testid=record]")
    pg.wait_for_function("document.querySelector('[data-testid=message]').textContent.includes('张: ')")
    assert pg.locator("#hand-list li").count() == 0

    _tap(pg, "#palette", ZHANG_TILES[-1:])
    pg.click("[data-testid=record]")
    pg.wait_for_function("document.querySelectorAll('#hand-list li').length === 1")
    assert pg.locator("[data-testid=value]").all_inner_texts() == ["李 · Value 3", "张 · Value 3"]
    assert pg.inner_text("#hand-list") == "李 and 张 won, discard of 王, value 3+3"  # one sentence, the variant's word
    totals = _totals(pg)
    assert totals == {"王": -6, "李": 3, "张": 3, "赵": 0}

    # stored as game settle's `winners:` form, and the export settles to the page's totals
    gid = pg.eval_on_selector("[data-testid=game-select]", "s => s.value")
    with urllib.request.urlopen(f"{url}/api/games/{gid}/export") as response:
        (tmp_path / "game.yaml").write_bytes(response.read())
    import yaml

    assert yaml.safe_load((tmp_path / "game.yaml").read_text(encoding="utf-8"))["hands"] == [{
        "winners": [{"winner": "李", "hand": "".join(LI_TILES)},
                    {"winner": "张", "hand": "".join(ZHANG_TILES), "melds": ["444s@赵"]}],
        "discarder": "王"}]
    settled = run_installed(["game", "settle", str(tmp_path / "game.yaml"), "--json"])
    assert settled.returncode == 0, settled.stderr
    assert json.loads(settled.stdout)["totals"] == totals

    # a variant without 一炮多响 offers no such choice
    pg.click("[data-testid=new-game-open]")
    pg.select_option("[data-testid=variant]", "wuhu315")
    pg.click("[data-testid=start]")
    pg.wait_for_function("document.querySelector('#game-select').value !== '" + gid + "'")
    assert pg.is_hidden("#multi-wrap")


# a page on another origin (another loopback port) that tries to write to the mjcalc server:
# "simple" requests, which a browser sends without asking the server first (no CORS preflight)
ATTACK = """<!doctype html><meta charset="utf-8"><title>elsewhere</title><body>
<iframe name="sink0"></iframe><iframe name="sink1"></iframe><iframe name="sink2"></iframe>
<form id="f0" method="POST" enctype="text/plain" target="sink0" action="{target}/api/games/{gid}/hands">
  <input name='{{"winner": "李", "discarder": "王", "hand": "123456m13m99p555p2m", "x": "' value='"}}'></form>
<form id="f1" method="POST" enctype="text/plain" target="sink1" action="{target}/api/games/{gid}/undo">
  <input name="x" value="y"></form>
<form id="f2" method="POST" enctype="text/plain" target="sink2" action="{target}/api/games">
  <input name='{{"variant": "wuhu315", "dealer": "a", "players": ["a", "b", "c", "d' value='"]}}'></form>
<script>
const target = "{target}";
const hand = JSON.stringify({{winner: "李", discarder: "王", hand: "123456m13m99p555p2m"}});
const game = JSON.stringify({{variant: "wuhu315", players: ["a", "b", "c", "d"], dealer: "a"}});
async function attack() {{
  const opts = (body, type) => ({{method: "POST", mode: "no-cors", body, ...(type ? {{headers: {{"content-type": type}}}} : {{}})}});
  await fetch(target + "/api/games/{gid}/hands", opts(hand));
  await fetch(target + "/api/games/{gid}/hands", opts(hand, "text/plain"));
  await fetch(target + "/api/games/{gid}/hands", opts(new Blob([hand], {{type: "application/x-www-form-urlencoded"}})));
  await fetch(target + "/api/games/{gid}/undo", opts(undefined));
  await fetch(target + "/api/games", opts(game));
  document.body.dataset.fetched = "1";
}}
attack();
</script></body>"""


@pytest.fixture
def elsewhere() -> Iterator[tuple[str, dict[str, str]]]:
    """A second web server, on another loopback port: another origin."""
    import http.server
    import threading

    pages: dict[str, str] = {}

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = pages.get(self.path, "").encode()
            self.send_response(200 if body else 404)
            self.send_header("content-type", "text/html; charset=utf-8")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", pages
    finally:
        httpd.shutdown()
        httpd.server_close()


def _post(url: str, body: Any) -> Any:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def test_a_page_elsewhere_cannot_write(page: Any, server: tuple[str, Path], elsewhere: tuple[str, dict[str, str]]) -> None:
    """A page at another origin, open in the same browser, posts hands, an undo and a new game
    with `fetch(mode: "no-cors")` and `<form enctype="text/plain">`: each is refused, nothing is written."""
    url, _ = server
    other, pages = elsewhere
    gid = _post(f"{url}/api/games", {"variant": "wuhu315", "players": PLAYERS, "dealer": "王"})["id"]
    _post(f"{url}/api/games/{gid}/hands", {"draw": True})
    pages["/"] = ATTACK.format(target=url, gid=gid)

    answers: list[Any] = []
    page.on("response", lambda r: answers.append(r) if r.url.startswith(url) else None)
    page.goto(f"{other}/")
    page.wait_for_selector("body[data-fetched='1']")
    for form in ("f0", "f1", "f2"):
        with page.expect_response(lambda r: r.url.startswith(url) and r.request.method == "POST"):
            page.evaluate(f"document.getElementById('{form}').submit()")
    statuses = [(r.request.method, r.status) for r in answers]
    assert statuses == [("POST", 403)] * 8, statuses  # every one reached the server, and was refused
    for frame in ("sink0", "sink1", "sink2"):
        assert '"bad_origin"' in page.frame(name=frame).content()

    with urllib.request.urlopen(f"{url}/api/games/{gid}/history", timeout=10) as response:
        assert [e["kind"] for e in json.loads(response.read())] == ["hand"]
    with urllib.request.urlopen(f"{url}/api/games", timeout=10) as response:
        assert [g["id"] for g in json.loads(response.read())] == [gid]


# 建议 / Advise: 1234567m 139p 777z + 5m; under 八支 the best throw is 9p
ADVISE = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "1p", "3p", "9p", "7z", "7z", "7z", "5m"]


def test_advise_view(page: Any, server: tuple[str, Path]) -> None:
    url, _ = server
    pg = page
    pg.goto(f"{url}/?lang=en")
    pg.wait_for_selector("body[data-ready='1']")
    pg.click("[data-testid=tab-advise]")
    pg.select_option("[data-testid=advise-variant]", "wuhu315")
    _tap(pg, "#advise-palette", ADVISE)
    pg.click("[data-testid=advise-go]")
    pg.wait_for_selector("[data-testid=advise-table] tr[data-tile]")
    rows = pg.locator("[data-testid=advise-table] tr[data-tile]")
    shown = [(rows.nth(i).get_attribute("data-tile"), int(rows.nth(i).get_attribute("data-shanten") or -1)) for i in range(rows.count())]
    printed = json.loads(run_installed(["advise", "1234567m1p3p9p777z5m", "--json"]).stdout)
    assert shown == [(r["tile"], r["shanten"]) for r in printed["discards"]]
    assert shown[0][0] == "9p"
    # pasted notation gives the same rows; a pasted hand of the wrong size says how many it needs
    pg.click("[data-testid=advise-clear]" if pg.locator("[data-testid=advise-clear]").count() else "#advise-clear")
    pg.fill("[data-testid=advise-paste]", "1234567m139p777z5m")
    pg.click("[data-testid=advise-use]")
    pg.wait_for_selector("[data-testid=advise-table] tr[data-tile='9p']")
    assert rows.count() == len(printed["discards"])
    pg.fill("[data-testid=advise-paste]", "1234567m139p777z")
    pg.click("[data-testid=advise-use]")
    pg.wait_for_function("document.querySelector('[data-testid=advise-message]').textContent.includes('needs 14')")
    pg.select_option("[data-testid=advise-variant]", "pujiang")
    assert pg.is_visible("[data-testid=advise-wild]")
    # a fifth copy is refused as it is tapped, and the palette says how many are left
    for _ in range(5):
        pg.click("#advise-palette [data-tile='1m']")
    assert pg.locator("#advise-tiles [data-tile='1m']").count() == 4
    assert pg.get_attribute("#advise-palette [data-tile='1m']", "data-left") == "0"
    pg.wait_for_function("document.querySelector('[data-testid=advise-message]').textContent.includes('All 4 copies')")
