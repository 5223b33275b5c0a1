"""The page's words come from the one catalogue (web/page_words.py, the .po files), and a Chinese
page is Chinese alone, an English one English alone.

The first tests read the page's sources and the API; the sessions at the end drive a real headless
Chromium (as tests/test_web_browser.py does, skipping where it is missing) through a scripted
session of each variant at 360 × 740: a new game, hands, an edit, a delete, an undo, a 流局, an
error, advise, waits and the season, and check the page's text after every step.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_words import HAN, english_left, sample

from mahjong_calc.core import words
from mahjong_calc.web.page_words import WORDS, words_json

pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")

STATIC = Path(__file__).resolve().parent.parent / "mahjong_calc" / "web" / "static"
KEY_USE = [  # where the page's scripts name a word by its key
    re.compile(r"""\bt\(\s*"(\w+)"""),  # t("key", ...)
    re.compile(r"""data-i18n(?:-placeholder|-label)?="(\w+)\""""),
    re.compile(r"""\bt\(\s*`(\w+)_\$\{"""),  # t(`home_${...}`): a family of keys, checked below
    re.compile(r"""missing:\s*"(\w+)\""""),  # entry.js: a message key for what is missing
]


def used_keys() -> set[str]:
    found: set[str] = set()
    for path in sorted(STATIC.glob("*.js")) + sorted(STATIC.glob("*.html")):
        text = path.read_text(encoding="utf-8")
        for pattern in KEY_USE:
            found |= set(pattern.findall(text))
    return found


def test_every_word_the_page_names_is_in_the_catalogue() -> None:
    keys = used_keys()
    families = {k for k in keys if not any(w.startswith(f"{k}_") or w == k for w in WORDS)}
    assert not families, f"the page names words that web/page_words.py lacks: {sorted(families)}"
    assert {"new_game", "record", "season", "net", "advise_note", "seat_e"} <= keys
    for prefix in ("home", "mode", "notice"):  # t(`home_${home.name}`), t(`mode_${m}`), t(`notice_${kind}`)
        assert any(w.startswith(f"{prefix}_") for w in WORDS)
    # and the other way: each word is named by the page, as a key or a quoted key (t(robbing() ? "robbed" : ...))
    sources = "".join(p.read_text(encoding="utf-8") for p in sorted(STATIC.glob("*.js")) + sorted(STATIC.glob("*.html")))
    unused = [k for k in WORDS if k not in keys and f'"{k}"' not in sources and not k.startswith(("home_", "mode_", "notice_"))]
    assert not unused, f"web/page_words.py has words the page never shows: {unused}"


def test_the_scripts_hold_no_words_of_their_own() -> None:
    """i18n.js keeps the lookup only: no table of words, and no script writes Chinese, but for the
    language button's own name (中文) and comments."""
    i18n = (STATIC / "i18n.js").read_text(encoding="utf-8")
    assert "const T" not in i18n and "new_game" not in i18n
    for path in sorted(STATIC.glob("*.js")):
        for line in path.read_text(encoding="utf-8").splitlines():
            code = line.split("//", 1)[0]
            if path.name == "dom.js" and re.match(r"const (HONOURS|SUIT) = ", code):
                continue  # the tiles' faces (东, 万), not words
            assert not HAN.search(code.replace('"中文"', "")), f"{path.name}: {line.strip()}"
    for page in ("index.html", "season.html"):
        text = re.sub(r"<!--.*?-->", "", (STATIC / page).read_text(encoding="utf-8"), flags=re.S)
        assert not HAN.search(text), page


def test_api_words_gives_both_languages_from_the_po() -> None:
    given = json.loads(words_json())
    assert set(given) == {"zh", "en"} and set(given["zh"]) == set(given["en"]) == set(WORDS)
    for key, text in WORDS.items():
        assert given["en"][key] == text.msgid and not HAN.search(given["en"][key]), key
        assert given["zh"][key] == words.translated(text.msgid, "zh"), key
        shown = sample(given["zh"][key], text.msgid)  # {n} filled in, as the page fills it
        assert HAN.search(shown) and not english_left(shown), (key, shown)
    assert given["zh"]["new_game"] == "新牌局" and given["en"]["new_game"] == "New game"


@pytest.fixture
def client(tmp_path: Path) -> Any:
    from starlette.testclient import TestClient

    from mahjong_calc.web.app import create_app

    with TestClient(create_app(tmp_path / "games.sqlite3"), base_url="http://127.0.0.1:8315") as c:
        yield c


@pytest.mark.parametrize(("header", "lang"), [
    (None, None), ("", None), ("zh-CN,zh;q=0.9,en;q=0.8", "zh"), ("en-US,en;q=0.9", "en"), ("fr-FR, de;q=0.5", None),
    ("fr, en;q=0.4, zh;q=0.6", "zh"), ("zh;q=0, en", "en"), ("zh;q=abc, en;q=0.1", "en"), ("ZH-tw", "zh"),
])
def test_the_language_of_a_request(header: str | None, lang: str | None) -> None:
    assert words.language_of_header(header) == lang


def test_the_api_answers_in_the_language_asked_for(client: Any) -> None:
    """An error's message in the request's language (Accept-Language); its code and keys are the same in each;
    without the header, as before (English)."""
    bodies = {}
    for lang in (None, "zh", "en"):
        headers = {"accept-language": lang} if lang else {}
        bad = client.post("/api/score", json={"hand": "12x"}, headers=headers)
        wrong = client.get("/api/games/x", headers=headers)
        typed = client.post("/api/score", content=b"{}", headers={**headers, "content-type": "text/plain"})
        assert (bad.status_code, wrong.status_code, typed.status_code) == (400, 404, 415)
        bodies[lang] = [r.json()["error"] for r in (bad, wrong, typed)]
    assert [[e["code"] for e in b] for b in bodies.values()] == [["unknown_character", "unknown_game", "bad_content_type"]] * 3
    for error in bodies["zh"]:
        assert HAN.search(error["message"]) and not english_left(error["message"]), error
    for error in bodies["en"] + bodies[None]:
        assert not HAN.search(error["message"]), error
    assert bodies[None][1]["message"] == "a game is named by its number, not 'x'"
    assert bodies["zh"][1]["message"] == "牌局要用编号指明, 不是 'x'"


def test_a_request_in_chinese_leaves_the_others_in_english(client: Any) -> None:
    """The language is the request's own (a context variable): a thread answering another request at
    the same time is not affected."""
    from concurrent.futures import ThreadPoolExecutor

    def ask(lang: str) -> str:
        return str(client.post("/api/score", json={"hand": "12x"}, headers={"accept-language": lang}).json()["error"]["message"])

    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(ask, ["zh", "en"] * 8))
    assert all(HAN.search(a) for a in answers[::2]) and not any(HAN.search(a) for a in answers[1::2])
    assert words.language() is None


def test_the_server_serves_the_words(client: Any) -> None:
    answer = client.get("/api/words")
    assert answer.status_code == 200 and answer.text == words_json()


def test_variants_say_which_have_discard_wins(client: Any) -> None:
    from mahjong_calc.core.flags import SELF_DRAW_ONLY

    given = {v["name"]: v for v in client.get("/api/variants").json()}
    assert {n for n, v in given.items() if v["self_draw_only"]} == {n for n in given if n in SELF_DRAW_ONLY} == {"pujiang"}
    from mahjong_calc.rules.loader import load_ruleset

    for name, v in given.items():  # the table's own word for the discarder, where its ruleset names one
        word = load_ruleset(name).data["labels"].get("discard")
        assert v["discarder"] == (dict(word) if word is not None else None)


def test_a_site_answers_in_the_language_of_the_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker's door (web/pocket.handle) takes the page's language with each request, as a server takes
    Accept-Language; /api/words is there too."""
    from mahjong_calc.web import pocket

    monkeypatch.setattr(pocket, "DB", str(tmp_path / "games.db"))
    ask = {"method": "POST", "path": "/api/score", "body": json.dumps({"hand": "12x"}), "version": None, "query": {}}
    (status, _, zh), (_, _, en) = (json.loads(pocket.handle(json.dumps({**ask, "lang": lang}))) for lang in ("zh", "en"))
    assert status == 400 and HAN.search(json.loads(zh)["error"]["message"]) and not HAN.search(json.loads(en)["error"]["message"])
    status, _, text = json.loads(pocket.handle(json.dumps({"method": "GET", "path": "/api/words", "body": None, "version": None, "query": {}})))
    assert status == 200 and text == words_json()


# --- the page in Chromium -----------------------------------------------------------------------

PLAYERS_ZH = ["王", "李", "张", "赵"]
PLAYERS_EN = ["Ann", "Bob", "Cat", "Dan"]
BAD = ["1m", "2m", "3m", "4m", "5m", "6m", "1m", "3m", "9p", "9p", "5p", "5p", "6p", "2m"]  # not a win anywhere
ADVISE = "1234567m139p555s5m"
# per variant: the first hand's tiles (the last tapped is the winning tile), and whether it is won on a discard
SESSIONS = {
    "wuhu315": (["1m", "2m", "3m", "4m", "5m", "6m", "1m", "3m", "9p", "9p", "5p", "5p", "5p", "2m"], True),
    "wuhu525": (["1m", "2m", "3m", "4m", "5m", "6m", "1m", "3m", "9p", "9p", "5p", "5p", "5p", "2m"], True),
    "chizhou": (["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1m", "1m", "1m", "9m", "9m"], True),
    "pujiang": (["1m", "1m", "1m", "2p", "2p", "2p", "3s", "3s", "3s", "4m", "5m", "9p", "9p", "6m"], False),
}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from test_web_browser import ARGS, CHROMIUM, sync_api

    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def served(servers: Any) -> str:
    port, _ = servers()
    return f"http://127.0.0.1:{port}"


def phone(browser: Any) -> Any:
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=1)
    pg = context.new_page()
    pg.errors = []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    pg.on("dialog", lambda d: d.accept())  # 流局, undo and delete ask first
    pg.set_default_timeout(15_000)
    return pg


# the working column (each breakdown row's detail) is written by the variants' explain step, not the page;
# the language button names the other language in itself (中文 on an English page), so that its reader finds it;
# a command to type (<code>: `mjcalc serve --host 0.0.0.0`) is in no language
WITHOUT_DETAILS = """() => { const cells = [...document.querySelectorAll('[data-testid=detail], [data-testid=lang], code')];
  cells.forEach((n) => { n.style.display = 'none'; });
  const text = document.body.innerText;
  cells.forEach((n) => { n.style.display = ''; });
  return text; }"""


def words_on(pg: Any) -> str:
    """The page's text as a reader sees it (innerText), without the working column."""
    return str(pg.evaluate(WITHOUT_DETAILS))


URL = re.compile(r"https?://\S+")


def check(pg: Any, lang: str, players: list[str], where: str, seen: list[str]) -> None:
    text = URL.sub("", words_on(pg))  # a link (the join link) is an address, in no language
    seen.append(text)
    if lang == "zh":
        left = english_left(text)
        assert not left, f"{where}: English on a Chinese page: {left}\n{text}"
    else:
        for name in players:
            text = text.replace(name, "")
        assert not HAN.search(text), f"{where}: Chinese on an English page: {HAN.findall(text)}\n{text}"


def tap(pg: Any, container: str, tiles: list[str]) -> None:
    for tile in tiles:
        pg.click(f"{container} [data-tile='{tile}']")


def session(pg: Any, url: str, variant: str, lang: str) -> list[str]:
    """One variant's scripted session on one phone; the page's text after each step."""
    players = PLAYERS_ZH if lang == "zh" else PLAYERS_EN
    tiles, on_discard = SESSIONS[variant]
    seen: list[str] = []
    pg.goto(f"{url}/?lang={lang}")
    pg.wait_for_selector("body[data-ready='1']")
    check(pg, lang, players, "start", seen)

    pg.click("[data-testid=new-game-open]")
    for i, name in enumerate(players):
        pg.fill(f"[data-testid=p{i}]", name)
    pg.select_option("[data-testid=variant]", variant)
    check(pg, lang, players, "new game form", seen)
    pg.click("[data-testid=start]")
    pg.wait_for_selector("#entry:not([hidden])")
    check(pg, lang, players, "new game", seen)

    def record(winner: str, hand: list[str], discarder: str | None, robbed: bool = False) -> None:
        pg.click(f"#winners [data-player='{winner}']")
        if robbed:
            pg.check("#extras [data-flag=robbing_kong]")
        if discarder is not None:
            pg.click(f"#discarders [data-player='{discarder}']")
        else:
            assert pg.is_hidden("#discarder-wrap")
        tap(pg, "#palette", hand)
        check(pg, lang, players, "a hand entered", seen)
        before = pg.locator("#hand-list li").count()
        pg.click("[data-testid=record]")
        pg.wait_for_function(f"document.querySelectorAll('#hand-list li').length === {before + 1}")

    a, b, c, d = players
    if on_discard:
        record(b, tiles, a)
        pg.wait_for_selector("[data-testid=value]")
        check(pg, lang, players, "hand 1 recorded", seen)
        record(c, tiles, d)
    else:  # Pujiang: no discarder offered but for 抢杠, where the other player is the robbed one
        assert pg.is_hidden("#self-draw-wrap") and pg.is_hidden("#discarder-wrap")
        record(b, tiles, None)
        pg.wait_for_selector("[data-testid=value]")
        check(pg, lang, players, "hand 1 recorded", seen)
        pg.click(f"#winners [data-player='{c}']")
        pg.check("#extras [data-flag=robbing_kong]")
        assert pg.is_visible("#discarder-wrap")
        expected = words.translated("Robbed kong of", "zh") if lang == "zh" else "Robbed kong of"
        assert pg.inner_text("#discarder-label") == expected
        pg.uncheck("#extras [data-flag=robbing_kong]")
        record(c, tiles, a, robbed=True)
    check(pg, lang, players, "hand 2 recorded", seen)

    # edit hand 1 and save it; delete hand 2; undo hand 1; a 流局
    pg.click("#hand-list li[data-no='1'] button")
    pg.wait_for_selector("[data-testid=edit-bar]:not([hidden])")
    check(pg, lang, players, "editing hand 1", seen)
    pg.click("[data-testid=record]")
    pg.wait_for_selector("[data-testid=edit-bar][hidden]", state="attached")
    check(pg, lang, players, "hand 1 saved", seen)
    pg.click("#hand-list li[data-no='2'] button")
    pg.wait_for_selector("[data-testid=edit-bar]:not([hidden])")
    pg.click("[data-testid=delete-hand]")
    pg.wait_for_function("document.querySelectorAll('#hand-list li').length === 1")
    check(pg, lang, players, "hand 2 deleted", seen)
    pg.click("[data-testid=undo]")
    pg.wait_for_function("document.querySelectorAll('#hand-list li').length === 0")
    check(pg, lang, players, "undone", seen)
    pg.click("[data-testid=draw]")
    pg.wait_for_function("document.querySelectorAll('#hand-list li').length === 1")
    check(pg, lang, players, "a draw", seen)

    # a hand that does not win: the error in the page's language, its code on the element only
    pg.click(f"#winners [data-player='{b}']")
    if on_discard:
        pg.click(f"#discarders [data-player='{a}']")
    tap(pg, "#palette", BAD)
    pg.click("[data-testid=record]")
    pg.wait_for_selector("[data-testid=message][data-code]")
    message = pg.inner_text("[data-testid=message]")
    code = pg.get_attribute("[data-testid=message]", "data-code")
    assert code and code not in message, message
    check(pg, lang, players, "an error", seen)
    pg.click("[data-testid=clear]")

    # advise: a pasted hand, its count, the table with copies left per useful tile
    pg.click("[data-testid=tab-advise]")
    pg.select_option("[data-testid=advise-variant]", variant)
    pg.fill("[data-testid=advise-paste]", ADVISE)
    pg.click("[data-testid=advise-use]")
    pg.wait_for_selector("[data-testid=advise-table] tr[data-tile]")
    assert pg.inner_text("[data-testid=advise-count]") == "14"
    check(pg, lang, players, "advise", seen)

    # waits: 13 tiles
    pg.click("[data-testid=tab-waits]")
    pg.select_option("[data-testid=waits-variant]", variant)
    tap(pg, "#waits-palette", tiles[:-1])
    pg.click("[data-testid=waits-go]")
    pg.wait_for_function("document.querySelector('[data-testid=waits-table] tr') || document.getElementById('waits-message').textContent")
    check(pg, lang, players, "waits", seen)

    # the season: the same language, remembered on this phone, with no ?lang=
    pg.goto(f"{url}/season")
    pg.wait_for_selector("[data-testid=season-summary]:not(:empty)")
    assert pg.evaluate("document.documentElement.lang") == lang
    check(pg, lang, players, "season", seen)
    return seen


# each language's session, and two of its words it must show (the score button, the season)
SHOWN = {"zh": ("计分并记录", "赛季"), "en": ("Score & record", "Season")}


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "lang"), [*((v, "zh") for v in sorted(SESSIONS)), ("wuhu315", "en"), ("pujiang", "en")])
def test_a_session_shows_no_word_of_the_other_language(browser: Any, served: str, variant: str, lang: str) -> None:
    pg = phone(browser)
    seen = session(pg, served, variant, lang)
    assert all(any(word in s for s in seen) for word in SHOWN[lang])
    assert pg.errors == []
    pg.context.close()


@pytest.mark.slow
def test_the_language_is_remembered_and_season_has_the_choice(browser: Any, served: str) -> None:
    pg = phone(browser)
    pg.goto(f"{served}/")
    pg.wait_for_selector("body[data-ready='1']")
    assert pg.evaluate("document.documentElement.lang") == "zh"  # Chinese first
    pg.click("[data-testid=lang]")
    assert pg.inner_text("[data-testid=record]") == "Score & record"
    pg.reload()
    pg.wait_for_selector("body[data-ready='1']")
    assert pg.evaluate("document.documentElement.lang") == "en" and pg.inner_text("[data-testid=new-game-open]") == "New game"
    pg.goto(f"{served}/season")
    pg.wait_for_selector("[data-testid=season-summary]:not(:empty)")
    assert "Net" in words_on(pg) and not HAN.search(words_on(pg).replace("中文", ""))
    pg.click("[data-testid=lang]")  # 中文, here too, and remembered for the page
    summary = words.translated("Games: {n}", "zh").format(n=0)  # written again once the season is read again
    pg.wait_for_function("(want) => document.querySelector('[data-testid=season-summary]').textContent === want", arg=summary)
    assert "净" in words_on(pg) and not english_left(words_on(pg))
    pg.goto(f"{served}/")
    pg.wait_for_selector("body[data-ready='1']")
    assert pg.inner_text("[data-testid=new-game-open]") == "新牌局"
    assert pg.errors == []
    pg.context.close()


@pytest.mark.slow
def test_advise_shows_its_count_copies_left_and_its_words_high_on_the_screen(browser: Any, served: str) -> None:
    pg = phone(browser)
    pg.goto(f"{served}/?lang=en")
    pg.wait_for_selector("body[data-ready='1']")
    pg.click("[data-testid=new-game-open]")  # a game open: its join panel is the play view's, not advise's
    for i, name in enumerate(PLAYERS_EN):
        pg.fill(f"[data-testid=p{i}]", name)
    pg.click("[data-testid=start]")
    pg.wait_for_selector("#entry:not([hidden])")
    pg.click("[data-testid=tab-advise]")
    pg.select_option("[data-testid=advise-variant]", "wuhu315")
    pg.fill("[data-testid=advise-paste]", ADVISE)
    pg.click("[data-testid=advise-use]")
    pg.wait_for_selector("[data-testid=advise-table] tr[data-tile]")
    assert pg.inner_text("[data-testid=advise-count]") == "14" and pg.locator("#advise-tiles .tile").count() == 14
    top = pg.evaluate("document.querySelector('[data-testid=advise-table]').getBoundingClientRect().top + window.scrollY")
    assert top < 420, top  # the results start within the first screen at 360 × 740
    heads = pg.locator("[data-testid=advise-table] th")
    assert all(heads.nth(i).evaluate("n => n.getClientRects().length === 1 && n.offsetHeight < 40") for i in range(heads.count()))
    from installed import run_installed

    printed = json.loads(run_installed(["advise", ADVISE, "--json"]).stdout)
    first = printed["discards"][0]
    row = pg.locator("[data-testid=advise-table] tr.useful").first
    assert [int(x) for x in row.locator("[data-left]").evaluate_all("ns => ns.map((n) => n.dataset.left)")] == [u["left"] for u in first["ukeire"]]
    assert pg.locator("[data-testid=ukeire-count]").first.inner_text() == str(first["ukeire_count"])
    note = pg.inner_text("[data-testid=advise-note]")
    assert "Draws" in note and "Shanten" in note and "Expected" in note
    assert pg.errors == []
    pg.context.close()


SCORED = [  # a win of each variant, on the page's API
    {"hand": "123456m13m99p555p2m", "discarder": "previous"},
    {"hand": "123456m13m99p555p2m", "discarder": "previous", "variant": "wuhu525"},
    {"hand": "123456789m111m99m", "discarder": "previous", "variant": "chizhou"},
    {"hand": "111m222p333s45m99p6m", "self_draw": True, "variant": "pujiang"},
]


def test_the_working_column_in_chinese(client: Any) -> None:
    for record in SCORED:
        answer = client.post("/api/score", json=record, headers={"accept-language": "zh"}).json()
        for item in answer["items"]:
            assert not english_left(item.get("detail", "")), (record, item)
