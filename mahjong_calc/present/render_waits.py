"""The questions asked before the win: `mjcalc waits`, `mjcalc advise` and `mjcalc options` as tables.

Lays out what the library returns (a `waits.WaitsResult`, an `advise.Advice`, option rows);
computes nothing. Rich is imported lazily.
"""

from __future__ import annotations

from typing import IO, Any

from ..core.words import N_
from .layout import NARROW, Words, bilingual, said, variant_name, variant_word
from .layout import console as _console
from .layout import facts as _facts
from .layout import fold as _fold
from .layout import names as _names
from .layout import table as _table
from .layout import whole_words as _whole_words
from .render import HEAD, LABELS, label_in


def _outcome_text(outcome: dict[str, Any], lang: str) -> str:
    """`8 (24)`: the value and what the winner receives; `—` with the code when it is no win."""
    if outcome.get("valid"):
        return f"{outcome['value']} ({outcome['total']})"
    return "—"


def _hand_facts(console: Any, title: str, hand: dict[str, Any], lang: str, wide: bool) -> None:
    """The hand and its melds above the table, their tiles named beside them where wide."""
    from .layout import concealed

    facts = _facts(title)
    named = lang == "zh" and not bilingual()  # a chosen Chinese screen: the tiles as players say them, no code
    names = f"  ({_names(hand['concealed'], lang)})" if wide and not named else ""
    facts.add_row(HEAD[lang]["hand"], (said(hand["concealed"], lang) if named else hand["concealed"]) + names)
    for meld in hand["melds"]:
        tiles = said(meld["tiles"], lang) if named else meld["tiles"]
        facts.add_row(HEAD[lang]["melds"], tiles + (concealed(lang) if meld["concealed"] else ""))
    console.print(facts)


def print_waits(waits: Any, lang: str = "zh", file: IO[str] | None = None, *, width: int | None = None, rules_name: bool = False) -> None:
    """The waits of a 13-tile hand (a `waits.WaitsResult`): tile, copies left, discard and self-draw scores."""
    from ..core.result import ScoreResult as _Result

    console = _console(file, width)
    wide = console.width >= NARROW
    data = waits.to_dict()
    title = waits.title[0] if lang == "zh" else waits.title[1]
    if rules_name:
        title = f"{waits.variant} ({LABELS[lang]['rules']})"
    _hand_facts(console, title, data["hand"], lang, wide)
    discard = variant_word(waits.variant, "discard", lang, LABELS[lang]["discard"]) if lang == "zh" else LABELS[lang]["discard"]

    if data["waits"]:
        table = _table(console)
        _fold(table, label_in("tile", lang, wide))
        _fold(table, label_in("left", lang, wide), "right")
        _fold(table, label_in("discard", lang, wide).replace(LABELS[lang]["discard"], discard, 1), "right")
        _fold(table, label_in("self_draw", lang, wide), "right")
        if wide:
            _fold(table, label_in("patterns", lang, wide), ratio=1)
        narrow_patterns: list[str] = []  # narrow: the pattern names go below the table
        for wait, row in zip(waits.waits, data["waits"]):
            best = next((o for o in (wait.self_draw, wait.discard) if isinstance(o, _Result)), None)
            found: list[str] = []
            if best is not None:
                for key in best.patterns:
                    zh, en = waits.names.get(key, (key, key))
                    found.append(zh if lang == "zh" else en)
            named = lang == "zh" and not bilingual()  # a chosen Chinese screen: the name alone
            tile = said(row["tile"], lang) if named else row["tile"] + (f" {_names(row['tile'], lang)}" if wide else "")
            cells = [tile, str(row["left"]), _outcome_text(row["discard"], lang), _outcome_text(row["self_draw"], lang)]
            if wide:
                cells.append(", ".join(found))
            elif found:
                narrow_patterns.append(f"{said(row['tile'], lang)}: {', '.join(found)}")
            table.add_row(*cells)
        console.print(_whole_words(table, console.width))
        note = N_("value (winner receives)").render(lang)
        console.print(note, overflow="fold")
        for line in narrow_patterns:
            console.print(line, overflow="fold", markup=False)
        refusals: dict[tuple[str, str], str] = {}  # each reason for a `—` once, not on every row
        for row in data["waits"]:
            for column in ("discard", "self_draw"):
                why = row[column].get("reason") or row[column].get("error")
                if why:
                    refusals.setdefault((column, why["code"]), why["message"])
        for (column, code), message in refusals.items():
            console.print(f"{discard if column == 'discard' else LABELS[lang][column]} —: [{code}] {message}", overflow="fold", markup=False)
        for row in data.get("blocked", []):  # tiles that complete the shape but break a rule
            reason = row["reason"] or {}
            text = f"{said(row['tile'], lang)}: {LABELS[lang]['blocked']} [{reason.get('code')}] {reason.get('message', '')}"
            console.print(text, overflow="fold", markup=False)
    # no winning tile: the CLI says why on stderr, as for a hand that is not a win


def _section(row: Any, lang: str) -> str:
    """` (§ Payments)`: the heading of the docs/rules page that explains the key (the pages are in
    English: on a chosen Chinese screen the heading is quoted as a name)."""
    if not row.section:
        return ""
    heading = row.section.split(" § ", 1)[-1]
    return f" (§ `{heading}`)" if lang == "zh" and not bilingual() else f" (§ {heading})"


OPTION_ROOM = 24  # columns the value and the meaning need at least, beside the longest key


def print_options(name: str, rows: Any, lang: str = "zh", file: IO[str] | None = None, *, width: int | None = None) -> None:
    """`mjcalc options`: key, value, and its meaning in one language with the docs section."""
    from rich.cells import cell_len

    console = _console(file, width)
    title = variant_name(name, lang)
    longest = max((cell_len(row.key) for row in rows), default=0)
    # a key is typed as shown (`--set KEY=...`): one unbroken cell, with room beside it for the rest, or a line of its own
    if console.width < NARROW or console.width - longest - 12 < OPTION_ROOM:  # a phone: one key per paragraph, nothing side by side
        console.print(title, markup=False)
        for row in rows:
            meaning = row.zh if lang == "zh" else row.en
            console.print(f"{row.key} = {row.shown}", overflow="fold", markup=False)
            if meaning:
                from rich.padding import Padding
                from rich.text import Text

                console.print(Padding(Text(f"{meaning}{_section(row, lang)}", overflow="fold"), (0, 0, 0, 2)))
        return
    heads = [N_("Key").render(lang), N_("Value (当前值)").render(lang), N_("Meaning").render(lang)]
    table = _table(console, title=title, title_justify="left")
    for header in heads:
        _fold(table, header)
    for row in rows:
        meaning = row.zh if lang == "zh" else row.en
        if lang == "zh" and row.en and bilingual():  # wide enough: Chinese, then the English beside it
            meaning += f" / {row.en}"
        table.add_row(row.key, row.shown, meaning + _section(row, lang))
    console.print(_whole_words(table, console.width, unbroken=(0,)))
    page = rows[0].section.split(" § ")[0].rsplit("/", 1)[-1] if rows and rows[0].section else ""
    if lang == "zh" and bilingual():
        console.print(f"§ = docs/rules/ 下的章节{page}", markup=False)  # as it always was
    else:
        console.print(N_("§ = the section of docs/rules/{page}", page=page).render(lang), markup=False)


ADVISE = Words(discard=N_("Discard (打)"), shanten=N_("Shanten"), count=N_("Draws"), tiles=N_("Useful tiles"), expected=N_("Expected"),
               win=N_("Already a win (self-draw), value"), tenpai=N_("tenpai"), unreachable=N_("unreachable"),
               note=N_("Expected: self-draw value, weighted by copies left"),
               left=N_("Useful tiles ×n: n copies of each left to draw; Draws: their sum"))
ADVISE_GLOSS = {"discard": "discard", "shanten": "shanten", "count": "draws", "tiles": "useful", "expected": "expected"}
ADVISE_NARROW_EN = {"discard": "Tile", "shanten": "Shan.", "count": "Draws", "tiles": "Useful", "expected": "Exp."}


def _with_copies(useful: list[dict[str, Any]], lang: str) -> str:
    """`1234567m×3 89m×4 9s×2`: the useful tiles, one word per suit and number of copies left,
    so a narrow column breaks between words."""
    from ..core.tiles import format_tiles, parse_tile

    words: list[str] = []
    run: list[int] = []
    for i, u in enumerate(useful):
        tile = parse_tile(u["tile"])
        run.append(tile)
        after = useful[i + 1] if i + 1 < len(useful) else None
        if after is None or after["left"] != u["left"] or parse_tile(after["tile"]) // 9 != tile // 9:
            words.append(f"{said(format_tiles(run), lang)}×{u['left']}")
            run = []
    return " ".join(words)


def print_advise(advice: Any, lang: str = "zh", file: IO[str] | None = None, *, width: int | None = None) -> None:
    """What to discard (an `advise.Advice`): one row per discard, best first, and the win if it is one."""
    console = _console(file, width)
    wide = console.width >= NARROW
    data = advice.to_dict()
    words = ADVISE[lang]

    def head(key: str) -> str:
        if lang == "en" and not wide:
            return ADVISE_NARROW_EN[key]
        return f"{words[key]} {ADVISE_GLOSS[key]}" if lang == "zh" and wide and bilingual() else words[key]

    title = advice.title[0] if lang == "zh" else advice.title[1]
    _hand_facts(console, title, data["hand"], lang, wide)
    if advice.win is not None:
        console.print(f"{words['win']} {advice.win.value}", overflow="fold", markup=False)
    table = _table(console)
    _fold(table, head("discard"))
    _fold(table, head("shanten"), "right")
    _fold(table, head("count"), "right")
    _fold(table, head("tiles"), ratio=1)
    _fold(table, head("expected"), "right")
    reasons: dict[str, str] = {}  # why a row can reach no win, each reason once (every row has the same melds)
    for row in data["discards"]:
        if row["shanten"] is None:
            shanten = words["unreachable"]
            reasons.setdefault(row["unreachable"]["code"], row["unreachable"]["message"])
        else:
            shanten = str(row["shanten"]) if row["shanten"] else f"0 {words['tenpai']}" if wide else "0"
        expected = "" if row.get("expected") is None else f"{row['expected']:g}"
        tile = row["tile"] if bilingual() else said(row["tile"], lang)
        table.add_row(tile, shanten, str(row["ukeire_count"]), _with_copies(row["ukeire"], lang), expected)
    console.print(_whole_words(table, console.width))
    for code, message in reasons.items():
        console.print(f"{words['unreachable']}: [{code}] {message}", overflow="fold", markup=False)
    console.print(words["left"], overflow="fold")
    if any("expected" in row for row in data["discards"]):
        console.print(words["note"], overflow="fold")
