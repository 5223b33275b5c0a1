"""Screenshots of every view of the page, in Chinese and in English, at 360 × 740 (a phone).

Starts `mjcalc serve` on a free loopback port with a new games database, drives the system
Chromium (/usr/bin/chromium, through Playwright) through a short game, and writes
`<view>-<lang>.png` into the folder given (default docs/screens/):

    start     the game list and the new-game form
    entry     a hand being entered (Pujiang: the 抢杠 control names the robbed player)
    result    a hand just recorded: its breakdown, who pays, the standings
    hands     the standings, the running totals and the hand list
    edit      a hand opened from the list, to be changed or deleted
    waits     the waits of 13 tiles
    advise    which tile to throw, for a pasted hand
    season    the season over the games

Chinese needs a CJK font for Chromium: where `fc-list :lang=zh` finds none, the script installs
fonts-noto-cjk with apt-get (as root), or says how to. Prints each file and its size.

    python bench/screenshots.py [DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
VIEWPORT = {"width": 360, "height": 740}
PLAYERS = {"zh": ["王", "李", "张", "赵"], "en": ["Ann", "Bob", "Cat", "Dan"]}
HAND = ["1m", "2m", "3m", "4m", "5m", "6m", "1m", "3m", "9p", "9p", "5p", "5p", "5p", "2m"]
PUJIANG = ["1m", "1m", "1m", "2p", "2p", "2p", "3s", "3s", "3s", "4m", "5m", "9p", "9p", "6m"]
ADVISE = "1234567m139p555s5m"
LOCALE = {"zh": "zh-CN", "en": "en-US"}


def ensure_cjk_font() -> None:
    """A CJK font for Chromium's Chinese: installed with apt-get where none is found."""
    found = subprocess.run(["fc-list", ":lang=zh"], capture_output=True, text=True, check=False).stdout.strip() \
        if shutil.which("fc-list") else ""
    if found:
        return
    if shutil.which("apt-get") and os.geteuid() == 0:
        print("no CJK font: apt-get install -y fonts-noto-cjk", file=sys.stderr)
        subprocess.run(["apt-get", "install", "-y", "-q", "fonts-noto-cjk"], check=True)
        return
    sys.exit("no CJK font for Chromium's Chinese: install one, e.g. `apt-get install fonts-noto-cjk`")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "mahjong_calc", "serve", "--port", str(port), "--db", str(db)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            with urllib.request.urlopen(f"{url}/api/variants", timeout=1):
                return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    sys.exit("mjcalc serve did not start")


def tap(pg: Any, container: str, tiles: list[str]) -> None:
    for tile in tiles:
        pg.click(f"{container} [data-tile='{tile}']")


def shoot(pg: Any, out: Path, view: str, lang: str, top: bool = True) -> None:
    if top:
        pg.evaluate("window.scrollTo(0, 0)")
    path = out / f"{view}-{lang}.png"
    pg.screenshot(path=str(path))
    print(f"{path}  {path.stat().st_size:,} bytes")


def views(browser: Any, url: str, lang: str, out: Path) -> None:
    # a phone set to the language shown (headless Chromium draws its date fields as mm/dd/yyyy all the same)
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1, locale=LOCALE[lang])
    pg = context.new_page()
    pg.on("dialog", lambda d: d.accept())
    pg.set_default_timeout(15_000)
    a, b, c, _ = PLAYERS[lang]
    pg.goto(f"{url}/?lang={lang}")
    pg.wait_for_selector("body[data-ready='1']")

    # a Wuhu game: the new-game form, a hand entered, recorded, a second one, the list
    pg.click("[data-testid=new-game-open]")
    for i, name in enumerate(PLAYERS[lang]):
        pg.fill(f"[data-testid=p{i}]", name)
    pg.select_option("[data-testid=variant]", "wuhu315")
    shoot(pg, out, "start", lang)
    pg.click("[data-testid=start]")
    pg.wait_for_selector("#entry:not([hidden])")
    pg.click(f"#winners [data-player='{b}']")
    pg.click(f"#discarders [data-player='{a}']")
    tap(pg, "#palette", HAND)
    pg.click("[data-testid=record]")
    pg.wait_for_selector("[data-testid=value]")
    shoot(pg, out, "result", lang)
    pg.click(f"#winners [data-player='{c}']")
    pg.check("[data-testid=self-draw]")
    tap(pg, "#palette", HAND)
    pg.click("[data-testid=record]")
    pg.wait_for_function("document.querySelectorAll('#hand-list li').length === 2")
    pg.evaluate("document.getElementById('standings-wrap').scrollIntoView()")
    shoot(pg, out, "hands", lang, top=False)
    pg.click("#hand-list li[data-no='1'] button")
    pg.wait_for_selector("[data-testid=edit-bar]:not([hidden])")
    pg.evaluate("document.getElementById('edit-bar').scrollIntoView()")
    shoot(pg, out, "edit", lang, top=False)
    pg.click("[data-testid=cancel-edit]")

    # a Pujiang game: no discarder but for 抢杠
    pg.click("[data-testid=new-game-open]")
    pg.select_option("[data-testid=variant]", "pujiang")
    pg.click("[data-testid=start]")
    pg.wait_for_function("document.body.dataset.variant === 'pujiang'")
    pg.click(f"#winners [data-player='{c}']")
    pg.check("#extras [data-flag=robbing_kong]")
    pg.click(f"#discarders [data-player='{a}']")
    tap(pg, "#palette", PUJIANG)
    pg.evaluate("document.getElementById('winners').scrollIntoView()")
    shoot(pg, out, "entry", lang, top=False)
    pg.click("[data-testid=record]")
    pg.wait_for_selector("[data-testid=value]")

    pg.click("[data-testid=tab-waits]")
    pg.select_option("[data-testid=waits-variant]", "wuhu315")
    tap(pg, "#waits-palette", HAND[:-1])
    pg.click("[data-testid=waits-go]")
    pg.wait_for_selector("[data-testid=waits-table] tr[data-tile]")
    pg.evaluate("document.getElementById('waits-tiles').scrollIntoView()")
    shoot(pg, out, "waits", lang, top=False)

    pg.click("[data-testid=tab-advise]")
    pg.select_option("[data-testid=advise-variant]", "wuhu315")
    pg.fill("[data-testid=advise-paste]", ADVISE)
    pg.click("[data-testid=advise-use]")
    pg.wait_for_selector("[data-testid=advise-table] tr[data-tile]")
    shoot(pg, out, "advise", lang)

    pg.goto(f"{url}/season")
    pg.wait_for_selector("[data-testid=standings] tbody tr")
    shoot(pg, out, "season", lang)
    context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", nargs="?", default="docs/screens", type=Path, help="where the PNGs go (default docs/screens)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    ensure_cjk_font()
    args.dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for lang in ("zh", "en"):
            proc, url = serve(Path(tmp) / f"games-{lang}.sqlite3")  # each language its own games
            try:
                views(browser, url, lang, args.dir)
            finally:
                proc.terminate()
                proc.wait(timeout=10)
        browser.close()


if __name__ == "__main__":
    main()
