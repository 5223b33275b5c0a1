"""`mjcalc stats`: the standings, each player's counts and biggest win, the patterns. Computes nothing.

At 60 columns and more, tables; below (a phone, 40 columns), one short paragraph per
player, wrapped at spaces: nothing is ever cut.
"""

from __future__ import annotations

from typing import IO, Any

from ..core.words import N_
from .layout import NARROW, Words, variant_name, variant_word
from .layout import console as _console
from .layout import fold as _fold
from .layout import table as _table
from .layout import whole_words as _whole_words

WORDS = Words(title=N_("Season: {games} games, {hands} hands"), variant_title=N_("{variant}: {games} games, {hands} hands"),
              player=N_("Player"), net=N_("Net"), games=N_("Games"), hands=N_("Hands"), wins=N_("Wins"), win_rate=N_("Win%"),
              self_draws=N_("Self"), deal_ins=N_("Deal-ins"), deal_in_rate=N_("Deal%"), draws=N_("Draws (流局)"), mean_win=N_("Mean"),
              liability_paid=N_("Liab. paid"), liability_received=N_("Liab. recv"), biggest=N_("Biggest"), pattern=N_("Pattern"),
              variant=N_("Variant"), times=N_("Times"), where=N_("{game} #{no}"), none=N_("none"))
LINES = (("games", "hands", "wins", "win_rate"), ("self_draws", "deal_ins", "deal_in_rate", "draws"),
         ("mean_win", "liability_paid", "liability_received"))  # a player's paragraph when narrow, a few counts a line


def _words(lang: str, part: dict[str, Any]) -> dict[str, str]:
    """The words of one variant's tables: its own word for a discard (放炮 at Wuhu, 放冲 at Chizhou)
    and, on a chosen Chinese screen, its name."""
    w = dict(WORDS[lang])
    variant = str(part.get("variant", ""))
    if lang == "zh" and variant:
        word = variant_word(variant, "discard", "zh", w["deal_ins"])
        w["deal_ins"], w["deal_in_rate"] = word, word + "率"
    return w


def _titled(w: dict[str, str], part: dict[str, Any], lang: str) -> str:
    return w["variant_title"].format(**{**part, "variant": variant_name(str(part["variant"]), lang)})


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def _cell(row: dict[str, Any], key: str) -> str:
    value = row[key]
    if key.endswith("_rate"):
        return f"{value:.0%}"
    if key == "mean_win":
        return f"{value:.1f}"
    return str(value)


def _biggest(row: dict[str, Any], lang: str) -> str:
    big = row["biggest"]
    if big is None:
        return WORDS[lang]["none"]
    names = (" " if lang == "zh" else ", ").join(zh if lang == "zh" else en for zh, en in big["names"])
    where = WORDS[lang]["where"].format(game=big["game"], no=big["no"])
    return " ".join(p for p in (str(big["value"]), names, f"({where})") if p)


def _pattern_name(p: dict[str, Any], lang: str) -> str:
    zh, en = p["names"]
    return str(zh if lang == "zh" else en)


def print_stats(data: dict[str, Any], lang: str = "zh", file: IO[str] | None = None, *, width: int | None = None) -> None:
    """Lay out `stats.view(...)`: each variant's standings by net with its players' counts (points of two
    variants are never added: a season of several has a heading per variant), their biggest wins, the patterns."""
    from rich.text import Text

    console = _console(file, width)
    w = WORDS[lang]
    several = len(data["standings"]) > 1
    players = sorted(data["players"], key=lambda r: -r["net"])
    biggest = {row["player"]: row for row in players}
    console.print(Text(w["title"].format(games=data["games"], hands=data["hands"]), overflow="fold"))
    if data.get("left_out"):
        from .render_game import left_out_line

        console.print(Text(left_out_line(data["left_out"], lang, by_game=True), overflow="fold"))
    if console.width < NARROW:
        for part in data["standings"]:
            w = _words(lang, part)
            if several:
                console.print(Text(_titled(w, part, lang), overflow="fold"))
            for row in part["players"]:
                console.print(Text(f"{row['player']}  {w['net']} {_signed(row['net'])}", overflow="fold"))
                for keys in LINES:
                    console.print(Text("  " + "  ".join(f"{w[k]} {_cell(row, k)}" for k in keys), overflow="fold"))
                if not several:  # one variant: the biggest win closes the player's paragraph
                    console.print(Text(f"  {w['biggest']} {_biggest(biggest[row['player']], lang)}", overflow="fold"))
        for row in players if several else ():
            console.print(Text(f"{row['player']}  {w['biggest']} {_biggest(row, lang)}", overflow="fold"))
        if data["patterns"]:
            console.print(Text(w["pattern"], overflow="fold"))
            for p in data["patterns"]:
                console.print(Text(f"  {_pattern_name(p, lang)} ({variant_name(p['variant'], lang)}) {p['wins']}", overflow="fold"))
        return
    tables: tuple[tuple[str, ...], ...] = (("net", "games", "hands", "wins", "win_rate", "mean_win"),
              ("self_draws", "deal_ins", "deal_in_rate", "draws", "liability_paid", "liability_received"))
    for part in data["standings"]:
        w = _words(lang, part)
        if several:
            console.print(Text(_titled(w, part, lang), overflow="fold"))
        for columns in tables:
            table = _table(console)
            _fold(table, w["player"])
            for key in columns:
                _fold(table, w[key], "right")
            for row in part["players"]:
                table.add_row(row["player"], *(_signed(row[k]) if k == "net" else _cell(row, k) for k in columns))
            console.print(_whole_words(table, console.width))
    biggest = _table(console)
    _fold(biggest, w["player"])
    _fold(biggest, w["biggest"])
    for row in players:
        biggest.add_row(row["player"], _biggest(row, lang))
    console.print(_whole_words(biggest, console.width))
    if data["patterns"]:
        patterns = _table(console)
        _fold(patterns, w["pattern"])
        _fold(patterns, w["variant"])
        _fold(patterns, w["times"], "right")
        for p in data["patterns"]:
            patterns.add_row(_pattern_name(p, lang), variant_name(p["variant"], lang), str(p["wins"]))
        console.print(_whole_words(patterns, console.width))
