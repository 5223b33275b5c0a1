"""The game table of `mjcalc game settle`: one row per hand, totals, 子, transfers. Computes nothing."""

from __future__ import annotations

import re
from typing import IO, Any

from ..core.words import N_
from .layout import Words, variant_name, variant_word

HEAD = Words(no=N_("#"), dealer=N_("Dealer"), winner=N_("Winner"), how=N_("How"), value=N_("Value"), liability=N_("Liability"),
             chips=N_(" (chips)"), total=N_("Total"), self_draw=N_("self-draw"), draw=N_("drawn"), discard=N_("from"),
             transfers=N_("Transfers"), ended=N_("a player's chips ran out: the game ended at hand {}"))


LEFT = Words(one=N_("1 hand left out ({}): these totals are not final"), many=N_("{} hands left out ({}): these totals are not final"),
             line=N_("line {}"), lines=N_("lines {}"), hand=N_("hand {}"), hands=N_("hands {}"), game=N_("game {}"), games=N_("games {}"))
SHOWN_LEFT_OUT = 10  # the hands a not-final line names; the count says how many there are


def left_out_line(left_out: list[dict[str, Any]], lang: str, by_game: bool = False) -> str:
    """`3 hands left out (lines 4, 7, 9): these totals are not final`: each hand left out by its line where
    known, else by its number (or, over several games or files, `by_game`, the games that hold them)."""
    w = LEFT[lang]
    if not by_game and all(h.get("line") is not None for h in left_out):
        one, many, key = w["line"], w["lines"], "line"
    elif not by_game and all("game" not in h for h in left_out):
        one, many, key = w["hand"], w["hands"], "no"
    else:
        one, many, key = w["game"], w["games"], "game"
    items = list(dict.fromkeys(str(h[key]) for h in left_out))
    shown = ", ".join(items[:SHOWN_LEFT_OUT]) + (", …" if len(items) > SHOWN_LEFT_OUT else "")
    where = (one if len(items) == 1 else many).format(shown)
    return w["one"].format(where) if len(left_out) == 1 else w["many"].format(len(left_out), where)


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def _refused(code: str, lang: str) -> str:
    """An error row's 方式 (How): on a chosen Chinese screen what went wrong, in general, in Chinese
    (its code and the whole message are on stderr); else the code, `[two_dealers]`."""
    from ..core.errors import GENERAL
    from ..core.words import translated
    from .layout import bilingual

    if lang == "zh" and not bilingual() and code in GENERAL:
        return translated(GENERAL[code], "zh") or f"[{code}]"
    return f"[{code}]"


def _width(file: IO[str] | None) -> tuple[Any, bool]:
    """The console, and whether its width was asked for (a terminal's, or COLUMNS) rather than the pipe's 120."""
    import os

    from .layout import console as made

    console = made(file, None, markup=True)
    if console.is_terminal:
        return console, True
    if os.environ.get("COLUMNS", "").strip().isdigit():
        return made(file, int(os.environ["COLUMNS"]), markup=True), True
    return made(file, 120, markup=True), False  # a pipe or a file: keep each hand on one line


class Screen:
    """Where game tables go: the console and whether its width was asked for, found once for many tables."""

    def __init__(self, file: IO[str] | None = None) -> None:
        self.console, self.asked = _width(file)


def print_game(data: dict[str, Any], lang: str = "zh", file: IO[str] | None = None, title: str | None = None,
               screen: Screen | None = None) -> None:
    """Lay out a `game settle` report (the dict `report_dict` returns); `title` instead of the variant's name.

    A table, one row per hand; on a terminal (or COLUMNS) too narrow for it, one short
    paragraph per hand instead, wrapped at spaces, so that nothing is cut. Piped, a table that
    fits is written as text directly (`_plain_table`: the bytes Rich's ASCII table gives, at a
    small part of its cost, for a log of thousands of games); anything else goes through Rich.
    """
    screen = screen or Screen(file)
    console, asked = screen.console, screen.asked
    head = HEAD[lang]
    players: list[str] = data["players"]
    has_chips = data["chips"] is not None
    discard = variant_word(data["variant"], "discard", "zh", head["discard"]) if lang == "zh" else head["discard"]
    rows = []
    for hand in data["hands"]:
        settlement = hand["settlement"]
        after = settlement["chips_after"]
        changes = [_signed(settlement["changes"][p]) + (f" ({after[p]})" if has_chips else "") for p in players]
        if "error" in hand:
            winner, how, value = "", _refused(hand["error"]["code"], lang), ""
            changes = ["" for _ in players]
        elif hand.get("draw"):
            winner, how, value = "", head["draw"], ""
        else:
            results = hand["result"] if isinstance(hand["result"], list) else [hand["result"]]
            winner = hand.get("winner") or "+".join(hand["winners"])
            how = head["self_draw"] if hand["self_draw"] else f"{discard} {hand['discarder'] or '?'}"
            value = "+".join(str(r["value"]) for r in results)
        marks = ", ".join(f"{row['zh'] if lang == 'zh' else row['en'].split(':')[0]} {row['payer']} +{row['amount']}" for row in settlement["liability"])
        rows.append((str(hand["no"]), hand["dealer"] if hand["dealer"] is not None else "?", winner, how, value, *changes, marks))
    totals = [_signed(data["totals"][p]) + (f" ({data['chips'][p]})" if has_chips else "") for p in players]
    name = title if title is not None else variant_name(data["variant"], lang)
    headers = [head[k] for k in ("no", "dealer", "winner", "how", "value")] + [p + (head["chips"] if has_chips else "") for p in players]
    headers.append(head["liability"])
    tail = [left_out_line(data["left_out"], lang)] if data.get("left_out") else []
    if data["ended_at"] is not None:
        tail.append(head["ended"].format(data["ended_at"]))
    if data["transfers"]:
        tail.append(head["transfers"] + ":")
        tail += [f"  {t['from']} → {t['to']} {t['amount']}" for t in data["transfers"]]
    if not console.is_terminal:
        text = _plain_table(name, headers, rows, (head["total"], "", "", "", "", *totals, ""), len(players), console.width, tail)
        if text is not None:
            console.file.write(text)
            return
    from rich import box
    from rich.markup import escape
    from rich.measure import Measurement
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD if console.is_terminal else box.ASCII2, title=escape(name), title_justify="left")
    for key in ("no", "dealer", "winner", "how"):
        table.add_column(head[key])
    table.add_column(head["value"], justify="right")
    for p in players:
        table.add_column(escape(p) + (head["chips"] if has_chips else ""), justify="right")
    table.add_column(head["liability"])
    for row in rows:
        table.add_row(*(escape(cell) for cell in row))
    table.add_section()
    table.add_row(*(escape(cell) for cell in (head["total"], "", "", "", "", *totals, "")))
    if asked and Measurement.get(console, console.options.update(width=1 << 16), table).maximum > console.width:
        _print_narrow(console, name, players, rows, totals, head, has_chips)
    else:
        console.print(table)
    for line in tail:
        console.print(escape(line), highlight=False)


_EMOJI = re.compile(r":\S*?:")  # what Rich may read as an emoji code (`:smile:`)


def _plain(cell: str) -> bool:
    """A cell Rich shows exactly as written: printable, one line, nothing Rich could read as an emoji code."""
    return cell.isprintable() and (":" not in cell or _EMOJI.search(cell) is None)


def _plain_table(title: str, headers: list[str], rows: list[tuple[str, ...]], totals: tuple[str, ...], players: int,
                 width: int, tail: list[str]) -> str | None:
    """The game table and the lines after it as Rich's ASCII box lays them out when everything fits
    in `width` on one line each (columns padded one space each side, players' columns and the value
    right-justified, the title left-justified to the table's width); None where Rich would wrap or
    read a cell otherwise (then Rich lays it out)."""
    from rich.cells import cell_len

    everything = [title, *headers, *totals, *tail]
    if not all(_plain(c) for c in everything) or not all(_plain(c) for row in rows for c in row):
        return None
    widths = [cell_len(h) for h in headers]
    for row in (*rows, totals):
        for i, cell in enumerate(row):
            n = cell_len(cell)
            if n > widths[i]:
                widths[i] = n
    total = sum(widths) + 3 * len(widths) + 1
    if total > width or cell_len(title) > total or any(cell_len(line) > width for line in tail):
        return None
    right = {4, *range(5, 5 + players)}

    def line(cells: tuple[str, ...] | list[str]) -> str:
        out = []
        for i, cell in enumerate(cells):
            pad = " " * (widths[i] - cell_len(cell))
            out.append(f" {pad}{cell} " if i in right else f" {cell}{pad} ")
        return "|" + "|".join(out) + "|\n"

    rule = "+" + "+".join("-" * (w + 2) for w in widths) + "+\n"
    parts = [title + "\n", rule, line(headers), rule]
    parts += [line(row) for row in rows]
    parts += [rule] if rows else []  # Rich's section line closes the last hand, when there is one
    parts += [line(totals), rule]
    parts += [t + "\n" for t in tail]
    return "".join(parts)


def _print_narrow(console: Any, title: str, players: list[str], rows: list[tuple[str, ...]], totals: list[str],
                  head: dict[str, str], has_chips: bool) -> None:
    """The game table as paragraphs: `#N (庄 X) winner how 番 value`, then each player's change, then the liability."""
    from rich.cells import cell_len
    from rich.text import Text

    def say(text: str) -> None:
        console.print(Text(text, overflow="fold"), highlight=False)

    def packed(entries: list[str]) -> None:
        """Entries two spaces apart, as many a line as fit; an entry is never split (unless it alone is too wide)."""
        line = ""
        for entry in entries:
            if line and cell_len(line) + 2 + cell_len(entry) > console.width:
                say(line)
                line = ""
            line = f"{line}  {entry}" if line else f"  {entry}"
        if line:
            say(line)

    say(title)
    for no, dealer, winner, how, value, *rest in rows:
        changes, marks = rest[:-1], rest[-1]
        say(" ".join(p for p in (f"{head['no']}{no}", f"({head['dealer']} {dealer})", winner, how,
                                 f"{head['value']} {value}" if value else "") if p))
        if any(changes):
            packed([f"{p} {c}" for p, c in zip(players, changes, strict=True)])
        if marks:
            packed([f"{head['liability']} {marks}"])
    say(head["total"] + (f" {head['chips'].strip()}" if has_chips else ""))
    packed([f"{p} {t}" for p, t in zip(players, totals, strict=True)])


TOTALS = Words(player=N_("Player"), total=N_("Total"), games=N_("Totals over {} games"), transfers=N_("Transfers"))


def print_totals(data: dict[str, Any], lang: str = "zh", file: IO[str] | None = None) -> None:
    """The totals over several games (`games`, `totals` {player: n}, `transfers`) and who pays whom."""
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    console, _ = _width(file)
    head = TOTALS[lang]
    console.print(head["games"].format(data["games"]), highlight=False)
    table = Table(box=box.SIMPLE_HEAD if console.is_terminal else box.ASCII2)
    table.add_column(head["player"])
    table.add_column(head["total"], justify="right")
    for name, n in data["totals"].items():
        table.add_row(escape(name), _signed(n))
    console.print(table)
    if data.get("left_out"):
        console.print(escape(left_out_line(data["left_out"], lang)), highlight=False)
    if data["transfers"]:
        console.print(head["transfers"] + ":", highlight=False)
        for t in data["transfers"]:
            console.print(escape(f"  {t['from']} → {t['to']} {t['amount']}"), highlight=False)
