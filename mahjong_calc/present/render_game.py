"""The game table of `mjcalc game settle`: one row per hand, totals, 子, transfers. Computes nothing."""

from __future__ import annotations

from typing import IO, Any

HEAD = {
    "zh": {"no": "#", "dealer": "庄", "winner": "和", "how": "方式", "value": "番", "liability": "包", "chips": "（子）",
           "total": "合计", "self_draw": "自摸", "draw": "流局", "discard": "点炮", "transfers": "结算", "ended": "子输完，牌局结束于第 {} 局"},
    "en": {"no": "#", "dealer": "Dealer", "winner": "Winner", "how": "How", "value": "Value", "liability": "Liability",
           "chips": " (chips)", "total": "Total", "self_draw": "self-draw", "draw": "drawn", "discard": "from",
           "transfers": "Transfers", "ended": "a player's chips ran out: the game ended at hand {}"},
}


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def _width(file: IO[str] | None) -> tuple[Any, bool]:
    """The console, and whether its width was asked for (a terminal's, or COLUMNS) rather than the pipe's 120."""
    import os

    from rich.console import Console

    console = Console(file=file)
    if console.is_terminal:
        return console, True
    if os.environ.get("COLUMNS", "").strip().isdigit():
        return Console(file=file, width=int(os.environ["COLUMNS"])), True
    return Console(file=file, width=120), False  # a pipe or a file: keep each hand on one line


def print_game(data: dict[str, Any], lang: str = "zh", file: IO[str] | None = None, title: str | None = None) -> None:
    """Lay out a `game settle` report (the dict `report_dict` returns); `title` instead of the variant's name.

    A table, one row per hand; on a terminal (or COLUMNS) too narrow for it, one short
    paragraph per hand instead, wrapped at spaces, so that nothing is cut.
    """
    from rich import box
    from rich.markup import escape
    from rich.measure import Measurement
    from rich.table import Table

    console, asked = _width(file)
    head = HEAD[lang]
    players: list[str] = data["players"]
    has_chips = data["chips"] is not None
    table = Table(box=box.SIMPLE_HEAD if console.is_terminal else box.ASCII2, title=escape(title) if title is not None else data["variant"],
                  title_justify="left")
    for key in ("no", "dealer", "winner", "how"):
        table.add_column(head[key])
    table.add_column(head["value"], justify="right")
    for p in players:
        table.add_column(escape(p) + (head["chips"] if has_chips else ""), justify="right")
    table.add_column(head["liability"])
    rows = []
    for hand in data["hands"]:
        settlement = hand["settlement"]
        after = settlement["chips_after"]
        changes = [_signed(settlement["changes"][p]) + (f" ({after[p]})" if has_chips else "") for p in players]
        if "error" in hand:
            winner, how, value = "", f"[{hand['error']['code']}]", ""
            changes = ["" for _ in players]
        elif hand.get("draw"):
            winner, how, value = "", head["draw"], ""
        else:
            results = hand["result"] if isinstance(hand["result"], list) else [hand["result"]]
            winner = hand.get("winner") or "+".join(hand["winners"])
            how = head["self_draw"] if hand["self_draw"] else f"{head['discard']} {hand['discarder'] or '?'}"
            value = "+".join(str(r["value"]) for r in results)
        marks = ", ".join(f"{row['zh'] if lang == 'zh' else row['en'].split(':')[0]} {row['payer']} +{row['amount']}" for row in settlement["liability"])
        rows.append((str(hand["no"]), hand["dealer"], winner, how, value, *changes, marks))
        table.add_row(*(escape(cell) for cell in rows[-1]))
    table.add_section()
    totals = [_signed(data["totals"][p]) + (f" ({data['chips'][p]})" if has_chips else "") for p in players]
    table.add_row(*(escape(cell) for cell in (head["total"], "", "", "", "", *totals, "")))
    if asked and Measurement.get(console, console.options.update(width=1 << 16), table).maximum > console.width:
        _print_narrow(console, title if title is not None else data["variant"], players, rows, totals, head, has_chips)
    else:
        console.print(table)
    if data["ended_at"] is not None:
        console.print(head["ended"].format(data["ended_at"]), highlight=False)
    if data["transfers"]:
        console.print(head["transfers"] + ":", highlight=False)
        for t in data["transfers"]:
            console.print(escape(f"  {t['from']} → {t['to']} {t['amount']}"), highlight=False)


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


TOTALS = {
    "zh": {"player": "玩家", "total": "合计", "games": "{} 局合计", "transfers": "结算"},
    "en": {"player": "Player", "total": "Total", "games": "Totals over {} games", "transfers": "Transfers"},
}


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
    if data["transfers"]:
        console.print(head["transfers"] + ":", highlight=False)
        for t in data["transfers"]:
            console.print(escape(f"  {t['from']} → {t['to']} {t['amount']}"), highlight=False)
