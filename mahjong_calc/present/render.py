"""Present results and errors: a Rich table for people, JSON for scripts.

Nothing here computes a score; it only lays out what a ScoreResult holds.
Rich is imported lazily so that `--json` never pays for it.
"""

from __future__ import annotations

import json
from typing import IO, Any

from ..core.errors import MjcalcError, NotAWin
from ..core.hand import SEAT_ZH
from ..core.result import ScoreResult
from ..core.tiles import parse_tiles, tile_name
from ..core.words import N_, Text, set_language

SEAT_NAMES = {en: (zh, en) for zh, en in SEAT_ZH.items()}  # seat -> (中文, English)
HEAD = {
    "zh": {"item": "项目", "gloss": "English", "value": "番", "detail": "说明", "hand": "手牌", "melds": "副露",
           "win": "和张", "sets": "拆分", "total": "合计", "pays": "支付", "seat": "座位"},
    "en": {"item": "Item", "gloss": "中文", "value": "Value", "detail": "Detail", "hand": "Hand", "melds": "Melds",
           "win": "Winning tile", "sets": "Reading", "total": "Value", "pays": "Pays", "seat": "Seat"},
}


def to_json(result: ScoreResult, explain: bool = False) -> str:
    """The result's JSON contract; with `explain`, also every reading under `"explain"`."""
    data = result.to_dict()
    if explain:
        from ..api.explain import explain as explained

        data["explain"] = explained(result)
    return json.dumps(data, ensure_ascii=False)


MAX_MESSAGE = 400  # characters of a message shown; messages bound what they echo, this is the backstop


def clean(text: str, limit: int = MAX_MESSAGE) -> str:
    """`text` safe for one terminal line and for UTF-8, at most about `limit` characters:
    control, format and surrogate characters (newlines, ESC, BEL, bidi overrides,
    undecodable argv bytes) are written as Python escapes, e.g. `\\x1b`."""
    if len(text) > limit:
        text = text[:limit] + "…"
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def messages_in(lang: str | None) -> None:
    """Write messages in `lang` from now on (`zh`, `en`; None: as with no language chosen, English)."""
    set_language(lang)


def message_of(code: str, message: str | Text) -> str:
    """A message in the chosen language, as an error of `code` with it would show it."""
    return MjcalcError(code, message).message


def error_dict(err: MjcalcError) -> dict[str, Any]:
    """`{"valid": false, "reason": …}` for a hand that is not a win, `"error"` for bad input."""
    body = err.to_dict()
    body["message"] = clean(str(body["message"]))
    return {"valid": False, ("reason" if isinstance(err, NotAWin) else "error"): body}


def error_json(err: MjcalcError) -> str:
    return json.dumps(error_dict(err), ensure_ascii=False)


WINDOW = 80  # characters of the input shown around the error's position


def error_line(err: MjcalcError) -> str:
    """One line naming the problem and, when known, where it is: `12[x]3m`."""
    kind = N_("not a win") if isinstance(err, NotAWin) else N_("error")
    return f"mjcalc: {kind} [{err.code}]: {clean(err.message)}{error_where(err)}"


def error_where(err: MjcalcError) -> str:
    """` at column 3: 12[x]3m` when the error knows where it is in its text, else ''."""
    if err.position is None or err.source is None:
        return ""
    src, pos = err.source, err.position
    start = max(0, pos - WINDOW // 2)
    before = ("…" if start else "") + clean(src[start:pos])
    after = clean(src[pos + 1 : pos + WINDOW // 2]) + ("…" if len(src) > pos + WINDOW // 2 else "")
    return " " + N_("at column {column}: {excerpt}", column=pos + 1, excerpt=f"{before}[{clean(src[pos:pos + 1])}]{after}").render()


NARROW = 60  # below this many columns the table shows one language only

DEALER = {"zh": "庄", "en": "dealer"}
LABELS = {
    "zh": {"winner": "赢家共收", "waits": "听牌", "rules": "规则文件", "tile": "张", "left": "剩",
           "discard": "点炮", "self_draw": "自摸", "patterns": "番种", "no": "不胡", "blocked": "不能胡",
           },
    "en": {"winner": "Winner receives", "waits": "Waits", "rules": "rules file", "tile": "Tile", "left": "Left",
           "discard": "Discard", "self_draw": "Self-draw", "patterns": "Patterns", "no": "no win",
           "blocked": "cannot win"},
}
GLOSS = {"discard": "discard", "self_draw": "self-draw", "left": "left", "tile": "tile", "patterns": "patterns",
         "winner": "winner receives", "waits": "waits"}


def _names(notation: str, lang: str) -> str:
    return " ".join(tile_name(t, lang) for t in parse_tiles(notation))


def _console(file: IO[str] | None, width: int | None) -> Any:
    from rich.console import Console

    return Console(file=file, width=width, markup=False)  # tiles like [555p] and `12[x]3m` are text, not markup


def _label(key: str, lang: str, wide: bool) -> str:
    """`自摸 self-draw` in Chinese on a wide screen, one language when narrow or in English."""
    text = LABELS[lang][key]
    if lang == "zh" and wide and key in GLOSS:
        return f"{text} {GLOSS[key]}"
    return text


def _table(console: Any, **kwargs: Any) -> Any:
    from rich import box
    from rich.table import Table

    narrow = console.width < NARROW  # no outer frame: four more columns for words
    return Table(box=box.SIMPLE_HEAD if console.is_terminal else box.ASCII2, padding=(0, 1), show_edge=not narrow, **kwargs)


def _fold(table: Any, header: str, justify: str = "left", ratio: int | None = None) -> None:
    """A column that wraps and, for a word longer than the column, folds it: never `…`."""
    table.add_column(header, justify=justify, overflow="fold", ratio=ratio)


def _whole_words(table: Any, width: int) -> Any:
    """Fix the column widths so the table fits `width` and wrapping splits no word.

    Each column gets its longest word; what room is left goes to the columns whose
    cells are longer than that, in proportion. Only when the longest words cannot
    all stand side by side does the widest column give way (and fold a word).
    """
    from rich.cells import cell_len

    mins: list[int] = []
    natural: list[int] = []
    for column in table.columns:
        texts = [str(column.header)] + [str(cell) for cell in column.cells]
        mins.append(max((cell_len(word) for text in texts for word in text.split()), default=1))
        natural.append(max((cell_len(text) for text in texts), default=1))
    # each column is padded by one on both sides, with a rule between columns (and at the edges if shown)
    room = width - 2 * len(mins) - (len(mins) - 1) - (2 if table.show_edge else 0)
    if sum(natural) <= room:
        return table  # everything fits on one line per cell
    while sum(mins) > room and max(mins) > 1:
        mins[mins.index(max(mins))] -= 1
    widths = list(mins)
    spare = room - sum(widths)
    wants = [max(n - m, 0) for n, m in zip(natural, mins)]
    while spare > 0 and any(w > 0 for w in wants):
        i = wants.index(max(wants))
        widths[i] += 1
        wants[i] -= 1
        spare -= 1
    for column, fixed in zip(table.columns, widths):
        column.width = fixed
    return table


def print_table(
    result: ScoreResult,
    lang: str = "zh",
    file: IO[str] | None = None,
    *,
    width: int | None = None,
    dealer_seat: str | None = None,
    rules_name: bool = False,
) -> None:
    """The breakdown a player reads at the table.

    Narrower than 60 columns it shows one language (`lang`) and wraps details;
    `dealer_seat` marks the dealer among the payers; `rules_name` titles the table
    with the ruleset's own name (for `--rules` files).
    """
    from rich.table import Table

    console = _console(file, width)
    wide = console.width >= NARROW
    head = HEAD[lang]
    data = result.to_dict()
    hand = data["hand"]
    title = result.title[0] if lang == "zh" else result.title[1]
    if rules_name:
        title = f"{result.variant} ({LABELS[lang]['rules']})"

    facts = Table(box=None, show_header=False, title=title, title_justify="left", padding=(0, 1))
    facts.add_column(style="bold", no_wrap=True)
    facts.add_column(overflow="fold")
    names = f"  ({_names(hand['concealed'], lang)})" if wide else ""  # narrow: the notation says it
    facts.add_row(head["hand"], hand["concealed"] + names)
    for meld in hand["melds"]:
        label = meld["tiles"] + (" concealed" if meld["concealed"] else "")
        facts.add_row(head["melds"], f"{label}  ({_names(meld['tiles'], lang)})")
    facts.add_row(head["win"], f"{hand['win']}  ({_names(hand['win'], lang)})")
    decomposition = data["decomposition"]
    if "pair" in decomposition:
        facts.add_row(head["sets"], " ".join([decomposition["pair"], *decomposition["sets"]]))
    elif "text" in decomposition:
        facts.add_row(head["sets"], decomposition["text"])
    if data.get("waits"):
        facts.add_row(_label("waits", lang, False), " ".join(data["waits"]))
    console.print(facts)

    items = _table(console)
    _fold(items, head["item"])
    gloss = wide and lang == "zh"
    if gloss:
        _fold(items, head["gloss"])
    _fold(items, head["value"], "right")
    _fold(items, head["detail"], ratio=1)
    for it in result.items:
        name = it.zh if lang == "zh" else it.en
        row = [name, it.en] if gloss else [name]
        items.add_row(*row, str(it.value), it.detail)
    items.add_section()
    items.add_row(head["total"], *([""] if gloss else []), str(result.value), "")
    console.print(_whole_words(items, console.width))

    pays = _table(console)
    _fold(pays, head["seat"])
    _fold(pays, head["pays"], "right")
    for seat, amount in result.payments.items():
        name = SEAT_NAMES[seat][0 if lang == "zh" else 1]
        if lang == "zh" and wide:
            name = f"{name} {SEAT_NAMES[seat][1]}"
        if seat == dealer_seat:
            name += f" ({DEALER[lang]})"
        pays.add_row(name, str(amount))
    pays.add_section()
    pays.add_row(_label("winner", lang, wide), str(data["total"]))
    console.print(_whole_words(pays, console.width))
    print_liability(console, data.get("liability") or [], lang)


def print_liability(console: Any, rows: list[dict[str, Any]], lang: str) -> None:
    """One line per liability shift (包牌, 承包, 反包), under the payments."""
    for row in rows:
        who = SEAT_NAMES[row["payer"]][0 if lang == "zh" else 1] if row["payer"] in SEAT_NAMES else row["payer"]
        name = f"{row['zh']} {row['code']}" if lang == "zh" else f"{row['code']} ({row['zh']}): {row['en']}"
        console.print(f"{who} +{row['amount']}  {name}", highlight=False, markup=False)


def _outcome_text(outcome: dict[str, Any], lang: str) -> str:
    """`8 (24)`: the value and what the winner receives; `—` with the code when it is no win."""
    if outcome.get("valid"):
        return f"{outcome['value']} ({outcome['total']})"
    return "—"


def print_waits(waits: Any, lang: str = "zh", file: IO[str] | None = None, *, width: int | None = None, rules_name: bool = False) -> None:
    """The waits of a 13-tile hand (a `waits.WaitsResult`): tile, copies left, discard and self-draw scores."""
    from rich.table import Table

    from ..core.result import ScoreResult as _Result

    console = _console(file, width)
    wide = console.width >= NARROW
    data = waits.to_dict()
    title = waits.title[0] if lang == "zh" else waits.title[1]
    if rules_name:
        title = f"{waits.variant} ({LABELS[lang]['rules']})"
    hand = data["hand"]
    facts = Table(box=None, show_header=False, title=title, title_justify="left", padding=(0, 1))
    facts.add_column(style="bold", no_wrap=True)
    facts.add_column(overflow="fold")
    names = f"  ({_names(hand['concealed'], lang)})" if wide else ""
    facts.add_row(HEAD[lang]["hand"], hand["concealed"] + names)
    for meld in hand["melds"]:
        facts.add_row(HEAD[lang]["melds"], meld["tiles"] + (" concealed" if meld["concealed"] else ""))
    console.print(facts)

    if data["waits"]:
        table = _table(console)
        _fold(table, _label("tile", lang, wide))
        _fold(table, _label("left", lang, wide), "right")
        _fold(table, _label("discard", lang, wide), "right")
        _fold(table, _label("self_draw", lang, wide), "right")
        if wide:
            _fold(table, _label("patterns", lang, wide), ratio=1)
        narrow_patterns: list[str] = []  # narrow: the pattern names go below the table
        for wait, row in zip(waits.waits, data["waits"]):
            best = next((o for o in (wait.self_draw, wait.discard) if isinstance(o, _Result)), None)
            found: list[str] = []
            if best is not None:
                for key in best.patterns:
                    zh, en = waits.names.get(key, (key, key))
                    found.append(zh if lang == "zh" else en)
            tile = row["tile"] + (f" {_names(row['tile'], lang)}" if wide else "")
            cells = [tile, str(row["left"]), _outcome_text(row["discard"], lang), _outcome_text(row["self_draw"], lang)]
            if wide:
                cells.append(", ".join(found))
            elif found:
                narrow_patterns.append(f"{row['tile']}: {', '.join(found)}")
            table.add_row(*cells)
        console.print(_whole_words(table, console.width))
        note = {"zh": "番值 (赢家共收)", "en": "value (winner receives)"}[lang]
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
            console.print(f"{LABELS[lang][column]} —: [{code}] {message}", overflow="fold", markup=False)
        for row in data.get("blocked", []):  # tiles that complete the shape but break a rule
            reason = row["reason"] or {}
            text = f"{row['tile']}: {LABELS[lang]['blocked']} [{reason.get('code')}] {reason.get('message', '')}"
            console.print(text, overflow="fold", markup=False)
    # no winning tile: the CLI says why on stderr, as for a hand that is not a win


def print_summary(tally: Any, names: dict[str, tuple[str, str]] | None = None, file: IO[str] | None = None,
                  *, width: int | None = None) -> None:
    """The terminal summary of a batch (a `batch.Tally`): counts (with how many records the
    compiled scorer answered), value by variant, patterns by name, and the failed records.

    `names` maps each pattern key to its (zh, en) names (`batch.command.pattern_names`).
    """
    from rich.table import Table
    from rich.text import Text

    console = _console(file, width)
    names = names or {}
    counts = Table(box=None, show_header=False, title="mjcalc batch", title_justify="left")
    counts.add_column(style="bold")
    counts.add_column(justify="right")
    for label, number in (("records", tally.records), ("wins", tally.wins),
                          ("not wins", tally.not_wins), ("errors", tally.errors),
                          ("compiled", tally.compiled)):
        counts.add_row(label, str(number))
    console.print(counts)

    if tally.wins_by_variant:
        variants = _table(console)
        for header, justify in (("variant", "left"), ("wins", "right"), ("total value", "right")):
            _fold(variants, header, justify)
        for name in sorted(tally.wins_by_variant):
            variants.add_row(name, str(tally.wins_by_variant[name]), str(tally.value_by_variant[name]))
        console.print(_whole_words(variants, console.width))
        console.print(Text("total value: the sum of each win's value, what one payer owes before their own "
                           "adjustments (not the winner's total from all three)", overflow="fold"))

    if tally.patterns:
        patterns = _table(console)
        for header, justify in (("pattern", "left"), ("名称", "left"), ("times", "right")):
            _fold(patterns, header, justify)
        for key, times in tally.patterns.most_common():
            zh, en = names.get(key, (key, key))
            patterns.add_row(en, zh, str(times))
        console.print(_whole_words(patterns, console.width))

    if tally.errors:
        codes = _table(console)
        _fold(codes, "error code")
        _fold(codes, "records", "right")
        for code, number in tally.error_codes.most_common():
            codes.add_row(code, str(number))
        console.print(_whole_words(codes, console.width))
        shown = sum(f.records for f in tally.failures.values())
        title = "failed records, each message once" + (f" (the first {len(tally.failures)} messages; {tally.errors - shown} more records)"
                                                       if shown < tally.errors else "")
        failed = _table(console, title=title, title_justify="left")
        for header, justify in (("line", "right"), ("id", "left"), ("code", "left"), ("records", "right"), ("message", "left")):
            _fold(failed, header, justify)
        for row in tally.failures.values():
            lines = ", ".join(str(line) for line, _ in row.first) + (", …" if row.records > len(row.first) else "")
            ids = ", ".join("" if rid is None else str(rid) for _, rid in row.first) if any(rid is not None for _, rid in row.first) else ""
            failed.add_row(lines, ids, row.code, str(row.records), row.message)
        console.print(_whole_words(failed, console.width))


def print_options(name: str, rows: Any, lang: str = "zh", file: IO[str] | None = None, *, width: int | None = None) -> None:
    """`mjcalc options`: key, value, and its meaning in one language with the docs section."""
    console = _console(file, width)
    if console.width < NARROW:  # a phone: one key per paragraph, nothing side by side
        console.print(name, markup=False)
        for row in rows:
            meaning = row.zh if lang == "zh" else row.en
            where = f" (§ {row.section.split(' § ', 1)[-1]})" if row.section else ""
            console.print(f"{row.key} = {row.shown}", overflow="fold", markup=False)
            if meaning:
                from rich.padding import Padding
                from rich.text import Text

                console.print(Padding(Text(f"{meaning}{where}", overflow="fold"), (0, 0, 0, 2)))
        return
    heads = {"zh": ("键", "当前值", "说明"), "en": ("Key", "Value", "Meaning")}[lang]
    table = _table(console, title=name, title_justify="left")
    for header in heads:
        _fold(table, header)
    for row in rows:
        meaning = row.zh if lang == "zh" else row.en
        if lang == "zh" and row.en:  # wide enough: Chinese, then the English beside it
            meaning += f" / {row.en}"
        if row.section:
            meaning += f" (§ {row.section.split(' § ', 1)[-1]})"
        table.add_row(row.key, row.shown, meaning)
    console.print(_whole_words(table, console.width))
    console.print({"zh": "§ = docs/rules/ 下的章节", "en": "§ = the section of docs/rules/"}[lang] + (
        f"{rows[0].section.split(' § ')[0].rsplit('/', 1)[-1]}" if rows and rows[0].section else ""), markup=False)


def print_explain(explained: dict[str, Any], lang: str = "zh", file: IO[str] | None = None, *, width: int | None = None) -> None:
    """`score --explain`: each reading (an `explain.explain` dict), its value and items, and why the chosen one won."""
    from rich.padding import Padding
    from rich.text import Text

    console = _console(file, width)
    title = {"zh": "读法", "en": "Readings"}[lang]
    rows = explained["readings"]
    console.print(f"{title} ({len(rows)})", markup=False)
    for number, row in enumerate(rows, start=1):
        mark = "*" if row["chosen"] else " "
        if row["refusal"] is None:
            head = f"{mark} {number}. {row['value']}: {row['reading']}"
            body = " + ".join(f"{(i['zh'] if lang == 'zh' else i['en'])} {i['value']}" for i in row["items"])
        else:
            head = f"{mark} {number}. —: {row['reading']}"
            body = f"[{row['refusal']['code']}] {row['refusal']['message']}"
        console.print(Text(head, overflow="fold"))
        if body:
            console.print(Padding(Text(body, overflow="fold"), (0, 0, 0, 5)))
    why = {"zh": "选中 (*)", "en": "Chosen (*)"}[lang]
    console.print(Text(f"{why}: {explained['why']}", overflow="fold"))


ADVISE = {
    "zh": {"discard": "打", "shanten": "向听", "count": "进张", "tiles": "有效牌", "expected": "期望",
           "win": "已和牌 (自摸), 番值", "tenpai": "听牌", "note": "期望: 自摸番值按剩张加权平均"},
    "en": {"discard": "Discard", "shanten": "Shanten", "count": "Draws", "tiles": "Useful tiles", "expected": "Expected",
           "win": "Already a win (self-draw), value", "tenpai": "tenpai",
           "note": "Expected: self-draw value, weighted by copies left"},
}
ADVISE_GLOSS = {"discard": "discard", "shanten": "shanten", "count": "draws", "tiles": "useful", "expected": "expected"}
ADVISE_NARROW_EN = {"discard": "Tile", "shanten": "Shan.", "count": "Draws", "tiles": "Useful", "expected": "Exp."}


def _by_suit(tiles: list[int]) -> str:
    """`5m 123789p`: one word per suit, so a narrow column breaks between suits."""
    from ..core.tiles import format_tiles

    return " ".join(format_tiles([t for t in tiles if t // 9 == suit]) for suit in range(4) if any(t // 9 == suit for t in tiles))


def print_advise(advice: Any, lang: str = "zh", file: IO[str] | None = None, *, width: int | None = None) -> None:
    """What to discard (an `advise.Advice`): one row per discard, best first, and the win if it is one."""
    from rich.table import Table

    from ..core.tiles import parse_tile

    console = _console(file, width)
    wide = console.width >= NARROW
    data = advice.to_dict()
    words = ADVISE[lang]

    def head(key: str) -> str:
        if lang == "en" and not wide:
            return ADVISE_NARROW_EN[key]
        return f"{words[key]} {ADVISE_GLOSS[key]}" if lang == "zh" and wide else words[key]

    title = advice.title[0] if lang == "zh" else advice.title[1]
    facts = Table(box=None, show_header=False, title=title, title_justify="left", padding=(0, 1))
    facts.add_column(style="bold", no_wrap=True)
    facts.add_column(overflow="fold")
    hand = data["hand"]
    names = f"  ({_names(hand['concealed'], lang)})" if wide else ""
    facts.add_row(HEAD[lang]["hand"], hand["concealed"] + names)
    for meld in hand["melds"]:
        facts.add_row(HEAD[lang]["melds"], meld["tiles"] + (" concealed" if meld["concealed"] else ""))
    console.print(facts)
    if advice.win is not None:
        console.print(f"{words['win']} {advice.win.value}", overflow="fold", markup=False)
    table = _table(console)
    _fold(table, head("discard"))
    _fold(table, head("shanten"), "right")
    _fold(table, head("count"), "right")
    _fold(table, head("tiles"), ratio=1)
    _fold(table, head("expected"), "right")
    for row in data["discards"]:
        shanten = str(row["shanten"]) if row["shanten"] else f"0 {words['tenpai']}" if wide else "0"
        useful = _by_suit([parse_tile(u["tile"]) for u in row["ukeire"]])
        expected = "" if row.get("expected") is None else f"{row['expected']:g}"
        table.add_row(row["tile"], shanten, str(row["ukeire_count"]), useful, expected)
    console.print(_whole_words(table, console.width))
    if any("expected" in row for row in data["discards"]):
        console.print(words["note"], overflow="fold")
