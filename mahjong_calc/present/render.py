"""Present results and errors: a Rich table for people, JSON for scripts.

Nothing here computes a score; it only lays out what a ScoreResult holds.
Rich is imported lazily so that `--json` never pays for it.
"""

from __future__ import annotations

import json
from typing import IO, Any

from ..core.result import ScoreResult
from ..core.words import N_, language
from .layout import NARROW, SEAT_NAMES, Words, bilingual, concealed, said, variant_name
from .layout import console as _console
from .layout import facts as _facts
from .layout import fold as _fold
from .layout import names as _names
from .layout import table as _table
from .layout import whole_words as _whole_words

HEAD = Words(item=N_("Item"), value=N_("Value"), detail=N_("Detail"), hand=N_("Hand"), melds=N_("Melds"), win=N_("Winning tile"),
             sets=N_("Reading"), total=N_("Value (合计)"), pays=N_("Pays"), seat=N_("Seat"))


def to_json(result: ScoreResult, explain: bool = False) -> str:
    """The result's JSON contract; with `explain`, also every reading under `"explain"`."""
    data = result.to_dict()
    if explain:
        from ..api.explain import explain as explained

        data["explain"] = explained(result)
    return json.dumps(data, ensure_ascii=False)


DEALER = Words(dealer=N_("dealer"))
LABELS = Words(winner=N_("Winner receives"), waits=N_("Waits"), rules=N_("rules file"), tile=N_("Tile"), left=N_("Left"),
               discard=N_("Discard"), self_draw=N_("Self-draw"), patterns=N_("Patterns"), no=N_("no win"), blocked=N_("cannot win"))
GLOSS = {"discard": "discard", "self_draw": "self-draw", "left": "left", "tile": "tile", "patterns": "patterns",
         "winner": "winner receives", "waits": "waits"}


def label_in(key: str, lang: str, wide: bool) -> str:
    """`自摸 self-draw` in Chinese on a wide screen with no language chosen, else one language."""
    text = LABELS[lang][key]
    if lang == "zh" and wide and key in GLOSS and bilingual():
        return f"{text} {GLOSS[key]}"
    return text


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
    console = _console(file, width)
    wide = console.width >= NARROW
    head = HEAD[lang]
    data = result.to_dict()
    hand = data["hand"]
    title = result.title[0] if lang == "zh" else result.title[1]
    if rules_name:
        title = f"{result.variant} ({LABELS[lang]['rules']})"

    facts = _facts(title)
    if lang == "zh" and not bilingual():  # a chosen Chinese screen: the tiles as players say them, no code
        facts.add_row(head["hand"], said(hand["concealed"], lang))
        for meld in hand["melds"]:
            facts.add_row(head["melds"], said(meld["tiles"], lang) + (concealed(lang) if meld["concealed"] else ""))
        facts.add_row(head["win"], said(hand["win"], lang))
    else:
        names = f"  ({_names(hand['concealed'], lang)})" if wide else ""  # narrow: the notation says it
        facts.add_row(head["hand"], hand["concealed"] + names)
        for meld in hand["melds"]:
            label = meld["tiles"] + (concealed(lang) if meld["concealed"] else "")
            facts.add_row(head["melds"], f"{label}  ({_names(meld['tiles'], lang)})")
        facts.add_row(head["win"], f"{hand['win']}  ({_names(hand['win'], lang)})")
    decomposition = data["decomposition"]
    if "pair" in decomposition:
        facts.add_row(head["sets"], said(" ".join([decomposition["pair"], *decomposition["sets"]]), lang))
    elif "text" in decomposition:
        facts.add_row(head["sets"], said(decomposition["text"], lang))
    if data.get("waits"):
        facts.add_row(label_in("waits", lang, False), said(" ".join(data["waits"]), lang))
    console.print(facts)

    items = _table(console)
    _fold(items, head["item"])
    gloss = wide and lang == "zh" and bilingual()
    if gloss:
        _fold(items, "English")  # the gloss column, with no language chosen
    _fold(items, head["value"], "right")
    _fold(items, head["detail"], ratio=1)
    for it in result.items:
        name = it.zh if lang == "zh" else it.en
        row = [name, it.en] if gloss else [name]
        items.add_row(*row, str(it.value), str(it.detail))
    items.add_section()
    items.add_row(head["total"], *([""] if gloss else []), str(result.value), "")
    console.print(_whole_words(items, console.width))

    pays = _table(console)
    _fold(pays, head["seat"])
    _fold(pays, head["pays"], "right")
    for seat, amount in result.payments.items():
        name = SEAT_NAMES[seat][0 if lang == "zh" else 1]
        if lang == "zh" and wide and bilingual():
            name = f"{name} {SEAT_NAMES[seat][1]}"
        if seat == dealer_seat:
            name += f" ({DEALER[lang]['dealer']})"
        pays.add_row(name, str(amount))
    pays.add_section()
    pays.add_row(label_in("winner", lang, wide), str(data["total"]))
    console.print(_whole_words(pays, console.width))
    print_liability(console, data.get("liability") or [], lang)


def print_liability(console: Any, rows: list[dict[str, Any]], lang: str) -> None:
    """One line per liability shift (包牌, 承包, 反包), under the payments."""
    for row in rows:
        who = SEAT_NAMES[row["payer"]][0 if lang == "zh" else 1] if row["payer"] in SEAT_NAMES else row["payer"]
        if not bilingual():
            name = row["zh"] if lang == "zh" else row["en"]
        else:
            name = f"{row['zh']} {row['code']}" if lang == "zh" else f"{row['code']} ({row['zh']}): {row['en']}"
        console.print(f"{who} +{row['amount']}  {name}", highlight=False, markup=False)


def print_explain(explained: dict[str, Any], lang: str = "zh", file: IO[str] | None = None, *, width: int | None = None) -> None:
    """`score --explain`: each reading (an `explain.explain` dict), its value and items, and why the chosen one won."""
    from rich.padding import Padding
    from rich.text import Text

    console = _console(file, width)
    title = N_("Readings").render(lang)
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
    why = N_("Chosen (*)").render(lang)
    console.print(Text(f"{why}: {explained['why']}", overflow="fold"))


def print_summary(tally: Any, names: dict[str, tuple[str, str]] | None = None, file: IO[str] | None = None,
                  *, width: int | None = None) -> None:
    """The terminal summary of a batch (a `batch.Tally`): counts (with how many records the
    compiled scorer answered), value by variant, patterns by name, and the failed records.

    `names` maps each pattern key to its (zh, en) names (`batch.command.pattern_names`). In the
    chosen language alone; with none, English words and each pattern in both languages.
    """
    from rich.table import Table
    from rich.text import Text

    console = _console(file, width)
    names = names or {}
    lang = language()
    counts = Table(box=None, show_header=False, title=N_("mjcalc batch").render(), title_justify="left")
    counts.add_column(style="bold")
    counts.add_column(justify="right")
    for label, number in ((N_("records"), tally.records), (N_("wins"), tally.wins),
                          (N_("not wins"), tally.not_wins), (N_("errors"), tally.errors),
                          (N_("compiled"), tally.compiled)):
        counts.add_row(label.render(), str(number))
    console.print(counts)

    if tally.wins_by_variant:
        variants = _table(console)
        for header, justify in ((N_("variant"), "left"), (N_("wins"), "right"), (N_("total value"), "right")):
            _fold(variants, header.render(), justify)
        for name in sorted(tally.wins_by_variant):
            variants.add_row(variant_name(name, lang or "en"), str(tally.wins_by_variant[name]), str(tally.value_by_variant[name]))
        console.print(_whole_words(variants, console.width))
        console.print(Text(N_("total value: the sum of each win's value, what one payer owes before their own "
                              "adjustments (not the winner's total from all three)").render(), overflow="fold"))

    if tally.patterns:
        patterns = _table(console)
        heads = [N_("pattern").render(), *(["名称"] if lang is None else []), N_("times").render()]  # no language: both names
        for head, justify in zip(heads, ["left"] * (len(heads) - 1) + ["right"], strict=True):
            _fold(patterns, head, justify)
        for key, times in tally.patterns_by_count():
            zh, en = names.get(key, (key, key))
            patterns.add_row(*((en, zh) if lang is None else (zh,) if lang == "zh" else (en,)), str(times))
        console.print(_whole_words(patterns, console.width))

    if tally.errors:
        codes = _table(console)
        _fold(codes, N_("error code").render())
        _fold(codes, N_("records").render(), "right")
        for code, number in tally.codes_by_count():
            codes.add_row(code, str(number))
        console.print(_whole_words(codes, console.width))
        shown = sum(f.records for f in tally.failures.values())
        title = (N_("failed records, each message once (the first {count} messages; {more} more records)", count=len(tally.failures),
                    more=tally.errors - shown) if shown < tally.errors else N_("failed records, each message once")).render()
        failed = _table(console, title=title, title_justify="left")
        for header, justify in ((N_("line"), "right"), (N_("id"), "left"), (N_("code"), "left"), (N_("records"), "right"),
                                (N_("message"), "left")):
            _fold(failed, header.render(), justify)
        for row in tally.failures.values():
            lines = ", ".join(str(line) for line, _ in row.first) + (", …" if row.records > len(row.first) else "")
            ids = ", ".join("" if rid is None else str(rid) for _, rid in row.first) if any(rid is not None for _, rid in row.first) else ""
            failed.add_row(lines, ids, row.code, str(row.records), row.message)
        console.print(_whole_words(failed, console.width))
