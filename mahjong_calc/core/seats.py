"""Seats: absolute E S W N (东 南 西 北) in play order, and seats relative to the winner.

The relative seats of one hand (`next` 下家, `opposite` 对家, `previous` 上家) are
computed from the winner's absolute seat, never stored. A meld may name the seat
it was taken from: `555p@opposite` (or `@下家 @对家 @上家`) on the command line, a
player name or an absolute seat in a game record.
"""

from __future__ import annotations

from typing import Literal

from .context import SEATS, Seat
from .errors import InputError
from .hand import SEAT_ZH

ABSOLUTE: tuple[str, ...] = ("E", "S", "W", "N")
ABSOLUTE_ZH: tuple[str, ...] = ("东", "南", "西", "北")
# A position seen from the winner: the winner themself, or one of the three payers.
Position = Literal["winner", "next", "opposite", "previous"]
POSITIONS: tuple[Position, ...] = ("winner", "next", "opposite", "previous")
RELATIVE_ALIASES: dict[str, Seat] = {**{seat: seat for seat in SEATS}, **SEAT_ZH}


def relative(winner: int, other: int) -> Position:
    """Where absolute seat `other` sits as seen from absolute seat `winner` (play order E→S→W→N)."""
    return POSITIONS[(other - winner) % 4]


def absolute(winner: int, position: Position) -> int:
    """The absolute seat index of `position` as seen from `winner`."""
    return (winner + POSITIONS.index(position)) % 4


def payers(winner: int) -> dict[Seat, int]:
    """The three payers' absolute seats, by relative seat."""
    return {seat: absolute(winner, seat) for seat in SEATS}


def split_source(text: str) -> tuple[str, str | None]:
    """'555p@opposite' → ('555p', 'opposite'); '555p' → ('555p', None)."""
    meld, sep, source = text.partition("@")
    if not sep:
        return text, None
    if not source.strip():
        raise InputError("bad_source", "meld {meld!r}: nothing after '@'; name the seat it was taken from", meld=text)
    return meld, source.strip()


def relative_source(meld: str, source: str) -> Seat:
    """A `--meld` source: next/opposite/previous or 下家/对家/上家."""
    seat = RELATIVE_ALIASES.get(source)
    if seat is None:
        choices = ", ".join(RELATIVE_ALIASES)
        raise InputError("bad_source", "--meld {meld}@{seat}: the source must be one of {choices}", meld=meld, seat=source, choices=choices)
    return seat


def seat_index(name: str, players: tuple[str, ...]) -> int | None:
    """A player name, or an absolute seat E/S/W/N or 东/南/西/北; None if it is neither."""
    if name in players:
        return players.index(name)
    for table in (ABSOLUTE, ABSOLUTE_ZH):
        if name in table:
            return table.index(name)
    return None
