"""Present results and errors: a Rich table for people, JSON for scripts.

Nothing here computes a score; it only lays out what a ScoreResult holds.
Rich is imported lazily so that `--json` never pays for it.
"""

from __future__ import annotations

import json
from typing import IO, Any

from .errors import MjcalcError, NotAWin
from .result import ScoreResult
from .tiles import parse_tiles, tile_name

SEAT_NAMES = {
    "next": ("下家", "next"),
    "opposite": ("对家", "opposite"),
    "previous": ("上家", "previous"),
}
HEAD = {
    "zh": {"item": "项目", "gloss": "English", "value": "番", "detail": "说明", "hand": "手牌", "melds": "副露",
           "win": "和张", "sets": "拆分", "total": "合计", "pays": "支付", "seat": "座位"},
    "en": {"item": "Item", "gloss": "中文", "value": "Value", "detail": "Detail", "hand": "Hand", "melds": "Melds",
           "win": "Winning tile", "sets": "Reading", "total": "Value", "pays": "Pays", "seat": "Seat"},
}


def to_json(result: ScoreResult) -> str:
    return json.dumps(result.to_dict(), ensure_ascii=False)


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
    kind = "not a win" if isinstance(err, NotAWin) else "error"
    where = ""
    if err.position is not None and err.source is not None:
        src, pos = err.source, err.position
        start = max(0, pos - WINDOW // 2)
        before = ("…" if start else "") + clean(src[start:pos])
        after = clean(src[pos + 1 : pos + WINDOW // 2]) + ("…" if len(src) > pos + WINDOW // 2 else "")
        where = f" at column {pos + 1}: {before}[{clean(src[pos:pos + 1])}]{after}"
    return f"mjcalc: {kind} [{err.code}]: {clean(err.message)}{where}"


def _names(notation: str, lang: str) -> str:
    return " ".join(tile_name(t, lang) for t in parse_tiles(notation))


def print_table(result: ScoreResult, lang: str = "zh", file: IO[str] | None = None) -> None:
    """The breakdown a player reads at the table."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    console = Console(file=file)
    head = HEAD[lang]
    data = result.to_dict()
    hand = data["hand"]
    title = result.title[0] if lang == "zh" else result.title[1]

    facts = Table(box=None, show_header=False, title=title, title_justify="left")
    facts.add_column(style="bold")
    facts.add_column()
    facts.add_row(head["hand"], f"{hand['concealed']}  ({_names(hand['concealed'], lang)})")
    for meld in hand["melds"]:
        label = meld["tiles"] + (" concealed" if meld["concealed"] else "")
        facts.add_row(head["melds"], f"{label}  ({_names(meld['tiles'], lang)})")
    facts.add_row(head["win"], f"{hand['win']}  ({_names(hand['win'], lang)})")
    decomposition = data["decomposition"]
    if "pair" in decomposition:
        facts.add_row(head["sets"], " ".join([decomposition["pair"], *decomposition["sets"]]))
    elif "text" in decomposition:
        facts.add_row(head["sets"], decomposition["text"])
    console.print(facts)

    items = Table(box=box.SIMPLE_HEAD if console.is_terminal else box.ASCII2)
    items.add_column(head["item"])
    items.add_column(head["gloss"])
    items.add_column(head["value"], justify="right")
    items.add_column(head["detail"])
    for it in result.items:
        first, second = (it.zh, it.en) if lang == "zh" else (it.en, it.zh)
        items.add_row(first, second, str(it.value), it.detail)
    items.add_section()
    items.add_row(head["total"], "", str(result.value), "")
    console.print(items)

    pays = Table(box=box.SIMPLE_HEAD if console.is_terminal else box.ASCII2)
    pays.add_column(head["seat"])
    pays.add_column(head["pays"], justify="right")
    for seat, amount in result.payments.items():
        pays.add_row(SEAT_NAMES[seat][0 if lang == "zh" else 1], str(amount))
    console.print(pays)


def print_summary(tally: Any, file: IO[str] | None = None) -> None:
    """The terminal summary of a batch (a `batch.Tally`): counts (with how many records the
    compiled scorer answered), value by variant, patterns."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    console = Console(file=file)
    counts = Table(box=None, show_header=False, title="mjcalc batch", title_justify="left")
    counts.add_column(style="bold")
    counts.add_column(justify="right")
    for label, number in (("records", tally.records), ("wins", tally.wins),
                          ("not wins", tally.not_wins), ("errors", tally.errors),
                          ("compiled", tally.compiled)):
        counts.add_row(label, str(number))
    console.print(counts)

    if tally.wins_by_variant:
        variants = Table(box=box.SIMPLE_HEAD if console.is_terminal else box.ASCII2)
        variants.add_column("variant")
        variants.add_column("wins", justify="right")
        variants.add_column("total value", justify="right")
        for name in sorted(tally.wins_by_variant):
            variants.add_row(name, str(tally.wins_by_variant[name]), str(tally.value_by_variant[name]))
        console.print(variants)

    if tally.patterns:
        patterns = Table(box=box.SIMPLE_HEAD if console.is_terminal else box.ASCII2)
        patterns.add_column("pattern")
        patterns.add_column("times", justify="right")
        for key, times in tally.patterns.most_common():
            patterns.add_row(key, str(times))
        console.print(patterns)
