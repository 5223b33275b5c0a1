"""`mjcalc site build`: the page as a static site, mjcalc's Python on Pyodide in a Web Worker.

The build's errors and layout are checked with a stand-in for Pyodide (no network). The site
itself runs in a real headless Chromium, served from a loopback static server: loaded once,
then the browser goes offline and the page is reloaded; from then on everything runs offline:
random hands of every variant scored in the page give the bytes `mjcalc score --json` prints,
the same for waits and advise, and a 10-hand game recorded on the page exports to YAML and
CSV that `mjcalc game settle` settles to the page's totals.

The browser part needs the pinned npm package: MJCALC_PYODIDE names its tarball (`npm pack
pyodide@314.0.8`, which .ci/run does) or folder, else the tarball .ci/run keeps in its cache
folder (~/.cache/mjcalc-ci/) is taken; without either those tests skip, saying so
(under CI=true they fail instead).
"""

from __future__ import annotations

import functools
import gzip
import http.server
import io
import json
import os
import random
import sys
import tarfile
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from installed import REPO, run_installed
from typer.testing import CliRunner

from mahjong_calc.cli.app import app
from mahjong_calc.web.site import PYODIDE_FILES, PYODIDE_VERSION
from mahjong_calc.web.site_pyodide import WASM, WASM_GZ

sys.path.insert(0, str(REPO / "bench"))
import differential  # (bench/differential.py: the record -> `mjcalc score` arguments)
import run as bench_run  # (bench/run.py: the random hands of the differential run)

IN_CI = os.environ.get("CI", "").lower() in ("true", "1")
CHROMIUM = Path("/usr/bin/chromium")
VARIANTS = ["wuhu315", "wuhu525", "chizhou", "pujiang"]
runner = CliRunner()


# --- the build, with a stand-in for Pyodide ---------------------------------------------------------


def fake_pyodide(root: Path, version: str = PYODIDE_VERSION, wasm: bytes = b"\0asm\x01\0\0\0") -> Path:
    """A folder with the files the build takes from the npm package, of the right kinds (not a working Pyodide)."""
    root.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        (root / name).write_bytes(b"// stand-in\n")
    (root / "package.json").write_text(json.dumps({"name": "pyodide", "version": version}), encoding="utf-8")
    (root / "pyodide-lock.json").write_text(json.dumps({"info": {}, "packages": {}}), encoding="utf-8")
    (root / "pyodide.asm.wasm").write_bytes(wasm)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("os.py", "")
    (root / "python_stdlib.zip").write_bytes(buf.getvalue())
    return root


def _build(args: list[str]) -> Any:
    return runner.invoke(app, ["site", "build", *args])


def test_the_site_holds_the_page_the_engine_and_the_offline_parts(tmp_path: Path) -> None:
    done = run_installed(["site", "build", str(tmp_path / "site"), "--pyodide", str(fake_pyodide(tmp_path / "py")), "--json"])
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    site = tmp_path / "site"
    for name in ["index.html", "sw.js", "manifest.webmanifest", "static/main.js", "static/worker.js", "static/transport.js",
                 "static/mjcalc.zip", "static/variants.json", "static/messages.json", "static/words.json", "static/icon-192.png", "static/site.json",
                 *(f"static/pyodide/{n}" for n in PYODIDE_FILES if n != WASM), f"static/pyodide/{WASM_GZ}"]:
        assert (site / name).is_file(), name
        assert name in out["files"]
    assert not (site / "static/app.js").exists() and not (site / "static/season.js").exists()
    index = (site / "index.html").read_text(encoding="utf-8")
    assert '<meta name="mjcalc-home" content="site">' in index and 'href="manifest.webmanifest"' in index
    manifest = json.loads((site / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["display"] == "standalone" and {i["sizes"] for i in manifest["icons"]} == {"192x192", "512x512"}
    assert (site / "static/icon-512.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    listed = json.loads((site / "static/site.json").read_text(encoding="utf-8"))
    assert listed["pyodide"] == PYODIDE_VERSION and listed["build"] == out["build"]
    assert (site / "sw.js").read_text(encoding="utf-8").startswith(f"self.SITE = {json.dumps(listed)};")
    assert all((site / f).is_file() for f in listed["files"] if f != "./")  # the service worker keeps every file
    with zipfile.ZipFile(site / "static/mjcalc.zip") as zf:
        names = set(zf.namelist())
    assert {"mahjong_calc/web/pocket.py", "mahjong_calc/present/answers.py", "mahjong_calc/core/tiles.py", "yaml/__init__.py",
            *(f"mahjong_calc/rulesets/{v}.yaml" for v in VARIANTS)} <= names
    assert not any(n.startswith("mahjong_calc/cli/") or n.endswith((".so", ".pyc")) for n in names)  # no typer, no rich, no binaries
    assert "mahjong_calc/web/app.py" not in names and "mahjong_calc/web/streams.py" not in names  # the server's alone
    assert not (site / f"static/pyodide/{WASM}").exists()  # shipped gzipped
    assert json.loads((site / "static/pyodide/pyodide-lock.json").read_text(encoding="utf-8"))["packages"] == {}
    # the page's variants and messages are what `mjcalc serve` answers
    from mahjong_calc.web import api, pocket
    from mahjong_calc.web.page_words import words_json

    assert (site / "static/variants.json").read_text(encoding="utf-8") == api.answer_variants()[1]
    assert (site / "static/messages.json").read_text(encoding="utf-8") == pocket.messages()
    assert (site / "static/words.json").read_text(encoding="utf-8") == words_json()  # the page's words, offline too


@pytest.mark.parametrize(("setup", "code"), [
    ("not_empty", "site_dir_not_empty"),
    ("a_file", "site_dir_not_empty"),
    ("under_a_file", "site_dir_not_writable"),
    ("wrong_version", "bad_pyodide"),
    ("not_wasm", "bad_pyodide"),
    ("missing_file", "bad_pyodide"),
    ("no_such_copy", "bad_pyodide"),
    ("bad_tarball", "bad_pyodide"),
])
def test_a_build_that_cannot_be_made_says_why(tmp_path: Path, setup: str, code: str) -> None:
    target = tmp_path / "site"
    copy = fake_pyodide(tmp_path / "py")
    if setup == "not_empty":
        target.mkdir()
        (target / "keep.txt").write_text("mine", encoding="utf-8")
    elif setup == "a_file":
        target.write_text("x", encoding="utf-8")
    elif setup == "under_a_file":
        (tmp_path / "file").write_text("x", encoding="utf-8")
        target = tmp_path / "file" / "site"
    elif setup == "wrong_version":
        copy = fake_pyodide(tmp_path / "old", version="0.26.0")
    elif setup == "not_wasm":
        copy = fake_pyodide(tmp_path / "bad", wasm=b"MZ\0\0")
    elif setup == "missing_file":
        (copy / "python_stdlib.zip").unlink()
    elif setup == "no_such_copy":
        copy = tmp_path / "nowhere.tgz"
    elif setup == "bad_tarball":
        copy = tmp_path / "pyodide.tgz"
        copy.write_bytes(b"not a tarball")
    done = _build([str(target), "--pyodide", str(copy), "--json"])
    assert done.exit_code == 2, done.output
    line = json.loads(done.stdout.strip().splitlines()[-1])
    assert line["error"]["code"] == code, line
    assert "Traceback" not in done.output
    if setup == "not_empty":
        assert sorted(p.name for p in target.iterdir()) == ["keep.txt"]  # nothing written into someone's folder


def test_a_tarball_is_read_by_name(tmp_path: Path) -> None:
    copy = fake_pyodide(tmp_path / "py")
    tgz = tmp_path / f"pyodide-{PYODIDE_VERSION}.tgz"
    with tarfile.open(tgz, "w:gz") as tar:
        for name in PYODIDE_FILES:
            tar.add(copy / name, arcname=f"package/{name}")
    done = _build([str(tmp_path / "site"), "--pyodide", str(tgz)])
    assert done.exit_code == 0, done.output
    assert gzip.decompress((tmp_path / f"site/static/pyodide/{WASM_GZ}").read_bytes()) == (copy / WASM).read_bytes()


def test_without_npm_and_without_a_copy_the_build_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    done = _build([str(tmp_path / "site"), "--json"])
    assert done.exit_code == 2
    assert json.loads(done.stdout.strip().splitlines()[-1])["error"]["code"] == "npm_unavailable"
    assert "--pyodide" in done.output


# --- the site in Chromium, offline ------------------------------------------------------------------


def cached_pyodide() -> Path:
    """Where .ci/run keeps the pinned tarball it fetched once (`npm pack` into the cache folder)."""
    home = os.environ.get("XDG_CACHE_HOME") or str(Path(os.environ.get("HOME") or "/tmp") / ".cache")
    return Path(home) / "mjcalc-ci" / f"pyodide-{PYODIDE_VERSION}.tgz"


def _pyodide_copy() -> Path:
    given = os.environ.get("MJCALC_PYODIDE") or (str(cached_pyodide()) if cached_pyodide().is_file() else None)
    reason = None
    if not given:
        reason = (f"MJCALC_PYODIDE is not set and {cached_pyodide()} is not there (the tarball of `npm pack pyodide@{PYODIDE_VERSION}`; "
                  ".ci/run fetches it there)")
    elif not Path(given).exists():
        reason = f"MJCALC_PYODIDE={given}: no such file or folder"
    if reason is None and not CHROMIUM.exists():
        reason = "no system Chromium at /usr/bin/chromium (apt-get install chromium)"
    if reason is not None:
        if IN_CI:
            pytest.fail(f"CI: {reason}")
        pytest.skip(reason)
    assert given is not None
    return Path(given)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = _pyodide_copy()
    site = tmp_path_factory.mktemp("site") / "site"
    done = run_installed(["site", "build", str(site), "--pyodide", str(copy)])
    assert done.returncode == 0, done.stderr
    return site


def test_a_first_visit_is_at_most_10_mb_without_gzip(site_dir: Path) -> None:
    """Every file of the site is fetched once at the first visit (the service worker keeps them all)."""
    listed = json.loads((site_dir / "static/site.json").read_text(encoding="utf-8"))["files"]
    total = sum((site_dir / f).stat().st_size for f in listed if f != "./") + (site_dir / "index.html").stat().st_size
    assert total <= 10_000_000, total
    assert (site_dir / "static/pyodide/python_stdlib.zip").stat().st_size < 2_000_000


@pytest.fixture(scope="module")
def site_url(site_dir: Path) -> Iterator[str]:
    site = site_dir
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()


@pytest.fixture(scope="module")
def offline(site_url: str) -> Iterator[Any]:
    """The site loaded once online, then the browser offline and the page reloaded: the page every test below uses."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 360, "height": 740}, accept_downloads=True)
        pg = context.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.on("dialog", lambda d: d.accept())
        pg.set_default_timeout(120_000)
        pg.goto(site_url + "?lang=en")
        pg.wait_for_selector("body[data-shown='1']")
        pg.wait_for_selector("body[data-ready='1']")
        pg.evaluate("navigator.serviceWorker.ready.then(() => true)")
        pg.wait_for_function("navigator.serviceWorker.controller !== null || caches.keys().then((k) => k.length > 0)")
        pg.wait_for_function("caches.keys().then((ks) => Promise.all(ks.map((k) => caches.open(k).then((c) => c.keys()))))"
                             ".then((all) => all.flat().length >= 20)")
        context.set_offline(True)
        pg.reload()
        pg.wait_for_selector("body[data-ready='1']")
        yield pg
        browser.close()
        assert errors == [], errors


def _page_answers(pg: Any, kind: str, records: list[dict[str, Any]]) -> list[str]:
    return list(pg.evaluate(f"(records) => Promise.all(records.map((r) => window.mjcalc.{kind}(r)))", records))


def _cli(command: str, record: dict[str, Any]) -> str:
    done = runner.invoke(app, [command, *differential.score_args(record)])
    return done.stdout.rstrip("\n").splitlines()[-1] if done.stdout.strip() else ""


def test_offline_the_page_opens_and_says_its_home(offline: Any) -> None:
    assert offline.evaluate("navigator.onLine") is False
    assert offline.get_attribute("[data-testid=home]", "data-home") == "site"
    assert offline.get_attribute("[data-testid=home]", "data-engine") == "ready"
    assert offline.evaluate("window.mjcalc.home") == "site"
    text = offline.evaluate("window.mjcalc.score({hand: '13m456m678m11p555p2m', self_draw: true})")
    assert text == _cli("score", {"hand": "13m456m678m11p555p2m", "self_draw": True})
    assert json.loads(text)["value"] == 8
    # the WebAssembly, shipped gzipped, is kept unpacked by the service worker, whence the engine took it
    kept = offline.evaluate("caches.match('static/pyodide/pyodide.asm.wasm').then((r) => r.arrayBuffer().then((b) => "
                            "[r.headers.get('content-type'), new Uint8Array(b.slice(0, 4)).join(','), b.byteLength]))")
    assert kept[:2] == ["application/wasm", "0,97,115,109"] and kept[2] > 5_000_000, kept
    assert offline.get_attribute("body", "data-offline") == "1"


def test_without_a_service_worker_the_engine_unpacks_the_wasm_itself(offline: Any, site_url: str) -> None:
    """No service worker (a plain http:// address on the network): the engine's worker unpacks the gzipped wasm itself."""
    pg = offline.context.browser.new_context(service_workers="block").new_page()
    pg.set_default_timeout(120_000)
    pg.goto(site_url)
    text = pg.evaluate("window.mjcalc.ready.then(() => window.mjcalc.score({hand: '13m456m678m11p555p2m', self_draw: true}))")
    assert pg.get_attribute("body", "data-offline") == "0"
    pg.context.close()
    assert text == _cli("score", {"hand": "13m456m678m11p555p2m", "self_draw": True})


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_hands_score_in_the_page_as_the_cli_prints_them(offline: Any, variant: str) -> None:
    rng = random.Random(f"site-{variant}")
    records = [bench_run.random_hand(rng, variant) for _ in range(200)]
    got = _page_answers(offline, "score", records)
    differ = [(r, g, w) for r, g in zip(records, got) if g != (w := _cli("score", r))]
    assert not differ, differ[:2]
    assert sum(json.loads(g).get("valid") is True for g in got) > 20  # wins among them, with melds, kongs, flags and 财神
    assert any("melds" in r for r in records) and any("concealed_kongs" in r for r in records)


def _before_the_win(record: dict[str, Any]) -> dict[str, Any]:
    """The record's tiles without the winning one (the last tile): what `waits` takes."""
    from mahjong_calc.core.tiles import format_tiles, parse_tiles

    tiles = parse_tiles(record["hand"])
    return {k: v for k, v in {"variant": record["variant"], "hand": format_tiles(tiles[:-1]), "melds": record.get("melds"),
                              "concealed_kongs": record.get("concealed_kongs"), "wild": record.get("wild")}.items() if v}


def test_waits_and_advise_in_the_page_are_the_clis(offline: Any) -> None:
    rng = random.Random("site-waits")
    hands = [bench_run.random_hand(rng, VARIANTS[i % 4]) for i in range(50)]
    waits = [_before_the_win(r) for r in hands]
    advise = [{k: v for k, v in r.items() if k in ("variant", "hand", "melds", "concealed_kongs", "wild")} for r in hands]
    for kind, records in (("waits", waits), ("advise", advise)):
        got = _page_answers(offline, kind, records)
        differ = [(r, g, w) for r, g in zip(records, got) if g != (w := _cli(kind, r))]
        assert not differ, (kind, differ[:2])
    assert any(json.loads(g).get("waits") for g in _page_answers(offline, "waits", waits[:10]))


def _game_hands() -> list[dict[str, Any]]:
    """Ten concealed Wuhu 315 wins, as the page enters them: tiles tapped in order, the winning tile last."""
    from mahjong_calc.api import score_hand
    from mahjong_calc.core.errors import MjcalcError

    rng = random.Random("site-game")
    players = ["王", "李", "张", "赵"]
    out: list[dict[str, Any]] = []
    while len(out) < 10:
        r = bench_run.random_hand(rng, "wuhu315")
        if set(r) - {"variant", "hand", "self_draw", "discarder"}:
            continue
        self_draw = len(out) % 3 == 0
        try:  # a win as entered (a hand that is not one raises), a small one: ten of them leave everyone some 子
            if score_hand(r["hand"], variant="wuhu315", self_draw=self_draw, discarder=None if self_draw else "next").value > 10:
                continue
        except MjcalcError:
            continue
        winner = players[len(out) % 4]
        out.append({"winner": winner, "self_draw": self_draw, "discarder": None if self_draw else players[(len(out) + 1) % 4],
                    "hand": r["hand"]})
    return out


def _tiles(hand: str) -> list[str]:
    from mahjong_calc.core.tiles import format_tiles, parse_tiles

    return [format_tiles([t]) for t in parse_tiles(hand)]


def _totals(pg: Any) -> dict[str, int]:
    rows = pg.locator("[data-testid=standings] tr[data-player]")
    return {rows.nth(i).get_attribute("data-player"): int(rows.nth(i).locator("[data-testid=total]").inner_text())
            for i in range(rows.count())}


def _settled(path: Path) -> dict[str, int]:
    done = run_installed(["game", "settle", str(path), "--json"])
    assert done.returncode == 0, done.stderr
    totals: dict[str, int] = json.loads(done.stdout)["totals"]
    return totals


def test_a_game_recorded_offline_settles_the_same_from_its_export(offline: Any, tmp_path: Path) -> None:
    pg = offline
    pg.click("[data-testid=new-game-open]")
    for i, name in enumerate(["王", "李", "张", "赵"]):
        pg.fill(f"[data-testid=p{i}]", name)
    pg.select_option("[data-testid=variant]", "wuhu315")
    pg.click("[data-testid=start]")
    pg.wait_for_selector("#entry:not([hidden])")
    hands = _game_hands()
    for n, hand in enumerate(hands, 1):
        pg.click(f"#winners [data-player='{hand['winner']}']")
        if hand["self_draw"]:
            pg.check("[data-testid=self-draw]")
        else:
            pg.click(f"#discarders [data-player='{hand['discarder']}']")
        for tile in _tiles(hand["hand"]):
            pg.click(f"#palette [data-tile='{tile}']")
        pg.click("[data-testid=record]")
        pg.wait_for_function(f"document.querySelectorAll('#hand-list li').length === {n}")
    # undo and redo, a hand deleted and entered again: the score book's other moves, offline
    pg.click("[data-testid=undo]")
    pg.wait_for_function("document.querySelectorAll('#hand-list li').length === 9")
    pg.click("[data-testid=redo]")
    pg.wait_for_function("document.querySelectorAll('#hand-list li').length === 10")
    pg.click("#hand-list li[data-no='3'] button")
    pg.wait_for_selector("[data-testid=edit-bar]:not([hidden])")
    pg.click("[data-testid=delete-hand]")
    pg.wait_for_function("document.querySelectorAll('#hand-list li').length === 9")
    totals = _totals(pg)
    assert sum(totals.values()) == 0 and any(totals.values())

    for fmt, testid in (("yaml", "export"), ("csv", "export-csv")):
        with pg.expect_download() as download:
            pg.click(f"[data-testid={testid}]")
        path = tmp_path / f"game.{fmt}"
        download.value.save_as(path)
        assert _settled(path) == totals, fmt

    # the game is kept (IndexedDB): a reload, still offline, shows it as it was
    game = pg.evaluate("document.body.dataset.game")
    pg.reload()
    pg.wait_for_selector("body[data-ready='1']")
    assert pg.evaluate("document.body.dataset.game") == game
    assert _totals(pg) == totals

    # importing the export makes a new game with the same totals
    pg.set_input_files("[data-testid=import]", str(tmp_path / "game.yaml"))
    pg.wait_for_function(f"document.body.dataset.game !== '{game}' && document.querySelectorAll('#hand-list li').length === 9")
    assert _totals(pg) == totals


# --- a phone's game moved to a server: `mjcalc game import` -----------------------------------------


def test_an_exported_game_imports_into_the_servers_games_with_the_same_totals(tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite3")
    game = tmp_path / "mjcalc-game-1.yaml"
    game.write_text("variant: wuhu315\nplayers: [王, 李, 张, 赵]\ndealer: 王\nhands:\n"
                    "- {winner: 李, discarder: 王, hand: 123456m13m99p555p2m}\n- {draw: true}\n"
                    "- {winner: 张, self_draw: true, melds: ['555s@李'], hand: 123456789m11p}\n", encoding="utf-8")
    done = run_installed(["game", "import", str(game), "--db", db, "--json"])
    assert done.returncode == 0, done.stderr
    (gid,) = json.loads(done.stdout)["ids"]
    shown = json.loads(run_installed(["game", "show", str(gid), "--db", db, "--json"]).stdout)
    assert shown["totals"] == _settled(game) and len(shown["hands"]) == 3
    # a file with a hand that does not settle is refused whole: no game is stored
    bad = tmp_path / "bad.yaml"
    bad.write_text(game.read_text(encoding="utf-8") + "- {winner: 李, discarder: 王, hand: 123m}\n", encoding="utf-8")
    refused = run_installed(["game", "import", str(bad), "--db", db])
    assert refused.returncode == 2 and "hand 4" in refused.stderr and "nothing was imported" in refused.stderr
    assert [g["id"] for g in json.loads(run_installed(["game", "list", "--db", db, "--json"]).stdout)] == [gid]


def test_offline_the_page_speaks_chinese_from_the_catalogue(offline: Any) -> None:
    """The page's words (static/words.json) and the worker's messages in the page's language, offline."""
    from test_words import HAN, english_left

    offline.click("[data-testid=lang]")  # 中文
    try:
        assert offline.inner_text("[data-testid=new-game-open]") == "新牌局"
        offline.click("[data-testid=tab-advise]")
        offline.fill("[data-testid=advise-paste]", "1234567m139p777z")  # 13 tiles: the worker refuses them
        offline.click("[data-testid=advise-use]")
        offline.wait_for_selector("[data-testid=advise-message][data-code=wrong_tile_count]")
        message = offline.inner_text("[data-testid=advise-message]")
        assert HAN.search(message) and not english_left(message), message
    finally:
        offline.click("[data-testid=lang]")
        offline.click("[data-testid=tab-play]")
    assert offline.inner_text("[data-testid=new-game-open]") == "New game"
