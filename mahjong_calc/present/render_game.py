"""The game table of `mjcalc game settle`: one row per hand, totals, 子, transfers. Computes nothing."""

from __future__ import annotations

from typing import IO, Any

HEAD = {
    "zh": {"no": "#", "dealer": "庄", "winner": "和", "how": "方式", "value": "番", "liability": "包", "chips": "（子）",
           "total": "合计", "self_draw": "自摸", "draw": "流局", "discard": "点炮", "transfers": "结算", "ended": "子输完，牌局结束于第 {} 局"},
    "en": {"no": "#", "dealer": "Dealer", "winner": "Winner", "how": "How", "value": "Value", "liability": "Liability",
           "chips": " (子)", "total": "Total", "self_draw": "self-draw", "draw": "drawn", "discard": "from",
           "transfers": "Transfers", "ended": "a player's 子 ran out: the game ended at hand {}"},
}


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def print_game(data: dict[str, Any], lang: str = "zh", file: IO[str] | None = None, title: str | None = None) -> None:
    """Lay out a `game settle` report (the dict `report_dict` returns); `title` instead of the variant's name."""
    from rich import box
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console(file=file)
    if not console.is_terminal:
        console = Console(file=file, width=120)  # a pipe or a file: keep each hand on one line
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
        marks = ", ".join(f"{row['zh'] if lang == 'zh' else row['code']} {row['payer']} +{row['amount']}" for row in settlement["liability"])
        table.add_row(*(escape(cell) for cell in (str(hand["no"]), hand["dealer"], winner, how, value, *changes, marks)))
    table.add_section()
    totals = [_signed(data["totals"][p]) + (f" ({data['chips'][p]})" if has_chips else "") for p in players]
    table.add_row(*(escape(cell) for cell in (head["total"], "", "", "", "", *totals, "")))
    console.print(table)
    if data["ended_at"] is not None:
        console.print(head["ended"].format(data["ended_at"]), highlight=False)
    if data["transfers"]:
        console.print(head["transfers"] + ":", highlight=False)
        for t in data["transfers"]:
            console.print(escape(f"  {t['from']} → {t['to']} {t['amount']}"), highlight=False)


TOTALS = {
    "zh": {"player": "玩家", "total": "合计", "games": "{} 局合计", "transfers": "结算"},
    "en": {"player": "Player", "total": "Total", "games": "Totals over {} games", "transfers": "Transfers"},
}


def print_totals(data: dict[str, Any], lang: str = "zh", file: IO[str] | None = None) -> None:
    """The totals over several games (`games`, `totals` {player: n}, `transfers`) and who pays whom."""
    from rich import box
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console(file=file)
    if not console.is_terminal:
        console = Console(file=file, width=120)
    head = TOTALS[lang]
    table = Table(box=box.SIMPLE_HEAD if console.is_terminal else box.ASCII2, title=head["games"].format(data["games"]), title_justify="left")
    table.add_column(head["player"])
    table.add_column(head["total"], justify="right")
    for name, n in data["totals"].items():
        table.add_row(escape(name), _signed(n))
    console.print(table)
    if data["transfers"]:
        console.print(head["transfers"] + ":", highlight=False)
        for t in data["transfers"]:
            console.print(escape(f"  {t['from']} → {t['to']} {t['amount']}"), highlight=False)
