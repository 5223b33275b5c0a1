"""The season view in a real headless Chromium at 360 px: the standings and one SVG line per player.

Runs the installed `mjcalc serve`; skips where the system Chromium or Playwright is missing
(as tests/test_web_browser.py does).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from installed import run_installed

pytestmark = pytest.mark.slow  # long: `pytest -m "not slow"` leaves it out (README)

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
if not CHROMIUM.exists():
    pytest.skip("no system Chromium at /usr/bin/chromium (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")
pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install '.[web]')")


@pytest.fixture
def server(tmp_path: Path, servers: Any) -> str:
    db = tmp_path / "games.sqlite3"
    for players, hands in (("王,李,张,赵", [["--winner", "李", "-s", "123456m13m99p555p2m"]]),
                           ("王,李,张,钱", [["--winner", "钱", "--discarder", "王", "123m456m789m11p999p"]])):
        assert run_installed(["game", "new", "--db", str(db), "--variant", "wuhu315", "--players", players]).returncode == 0
        for args in hands:
            assert run_installed(["game", "add", "--db", str(db), *args]).returncode == 0
    port, _ = servers(db=db)
    return f"http://127.0.0.1:{port}"


def test_the_season_view_shows_the_standings_and_a_line_per_player(server: str) -> None:
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page: Any = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.set_default_timeout(15_000)
        page.goto(server + "/season")
        page.wait_for_selector("[data-testid=standings] tr[data-player]")
        rows = page.locator("[data-testid=standings] tr[data-player]")
        assert [rows.nth(i).get_attribute("data-player") for i in range(rows.count())] == ["李", "钱", "赵", "王", "张"]
        assert page.get_attribute("[data-testid=season-summary]", "data-games") == "2"
        assert "2" in page.locator("[data-testid=season-summary]").inner_text()
        lines = page.locator("[data-testid=season-chart] polyline")
        assert lines.count() == 5
        assert len(lines.nth(0).get_attribute("points").split()) == 3  # before the first game, after each of two
        page.fill("[data-testid=until]", "2000-01-01")
        page.click("[data-testid=season-range] button")
        page.wait_for_function("document.querySelector('[data-testid=season-summary]').dataset.games === '0'")
        assert page.locator("[data-testid=standings] tr[data-player]").count() == 0
        width = page.evaluate("document.documentElement.scrollWidth")
        browser.close()
    assert errors == [], errors
    assert width <= 360


def test_a_season_of_two_variants_shows_one_at_a_time(tmp_path: Path, servers: Any) -> None:
    db = tmp_path / "games.sqlite3"
    for variant in ("wuhu315", "wuhu525"):
        assert run_installed(["game", "new", "--db", str(db), "--variant", variant, "--players", "王,李,张,赵"]).returncode == 0
        assert run_installed(["game", "add", "--db", str(db), "--winner", "李", "-s", "123456m13m99p555p2m"]).returncode == 0
    port, _ = servers(db=db)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page: Any = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
        page.set_default_timeout(15_000)
        page.goto(f"http://127.0.0.1:{port}/season")
        page.wait_for_selector("[data-testid=standings] tr[data-player]")
        assert page.locator("[data-testid=season-variant]").is_visible()
        rows = page.locator("[data-testid=standings] tr[data-player]")
        first = rows.nth(0).get_attribute("data-variant")
        nets = {rows.nth(i).get_attribute("data-player"): rows.nth(i).locator("td").nth(1).inner_text() for i in range(rows.count())}
        assert rows.count() == 4 and {rows.nth(i).get_attribute("data-variant") for i in range(4)} == {first}
        other = "wuhu525" if first == "wuhu315" else "wuhu315"
        page.select_option("[data-testid=season-variant]", other)
        page.wait_for_selector(f"[data-testid=standings] tr[data-variant={other}]")
        assert page.locator("[data-testid=standings] tr[data-player]").count() == 4
        assert page.locator("[data-testid=season-chart] polyline").count() == 4
        winner = page.locator("[data-testid=standings] tr[data-player=李] td").nth(1).inner_text()
        counted = json.loads(run_installed(["stats", "--db", str(db), "--json"]).stdout)["players"]["李"]["by_variant"]
        assert (nets["李"], winner) == tuple(f"{counted[v]['net']:+d}" for v in (first, other))  # each variant's own net
        browser.close()
