"""The games of one file, cut from one stream of headers and hands (`Head`, `RawHand`): `sections` gives each
game in turn, read as its fold reaches it; `with_defaults` and `check_in` check a header of a file of several games."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..core.errors import MjcalcError, shown
from ..core.words import N_, Text
from .game_file import GameFile, GameFileError, RawHand, check_header


@dataclass(frozen=True)
class Games:
    """The games of one file, in order: `count` of them; iterate once. `notes`: what stderr should say of how
    the file was read (a dealer column filled down, a workbook's sheets left out); `details`: what --verbose adds
    (a CSV log's encoding, the sheets read)."""

    count: int
    games: Iterator[GameFile]
    notes: tuple[Text, ...] = ()
    details: tuple[Text, ...] = ()

    def __iter__(self) -> Iterator[GameFile]:
        return self.games


def _bad(message: str, **params: object) -> GameFileError:
    return GameFileError("bad_game", message, None, None, **params)


def with_defaults(header: Mapping[str, Any], defaults: Mapping[str, Any], name: str) -> dict[str, Any]:
    """The header with the options' values where it gives none; an option that contradicts the file is an error."""
    out = dict(header)
    for key, value in defaults.items():
        if value is None:
            continue
        if key == "variant" and "rules" in out:
            raise _bad("{name}: --variant {value} is given, but the game names a ruleset file (rules: {out})", name=name, value=value, out=shown(out['rules']))
        if key in out and out[key] is not None and out[key] != value:
            raise _bad("{name}: --{key} {value} is given, but the game says {key}: {first}",
                name=name, key=key, value=shown(_cell_text(value)), first=shown(_cell_text(out[key])))
        out[key] = value
    return out


def check_in(header: Mapping[str, Any], where: str) -> None:
    """A header of a file of several games, checked before any hand; the message says which game."""
    try:
        check_header(header, (), where)
    except MjcalcError as err:
        raise placed(err, where) from None


def place(name: str, line: int | None = None, game: object = None) -> str:
    """Where a header is in a file of several games, in the language chosen: `log.csv: line 2 (game 1)`,
    `log.jsonl: line 5`, `log.yaml: game 2`."""
    if line is None:
        return N_("{name}: game {game}", name=name, game=game).render()
    if game is None:
        return N_("{name}: line {line}", name=name, line=line).render()
    return N_("{name}: line {line} (game {game})", name=name, line=line, game=game).render()


def placed(err: MjcalcError, where: str) -> MjcalcError:
    """`err` said to be at `where` (`log.csv: line 2 (game 1): ...`), unless its message names that place already
    (in any language: a message's own `{name}`)."""
    if err.params.get("name") == where or err.message.startswith(where):
        return err
    return err.within(Text("{where}", {"where": where}))


def _cell_text(value: Any) -> str:
    return ",".join(value) if isinstance(value, list) else str(value)


@dataclass(frozen=True)
class Head:
    """In the stream of a file of several games: the next game begins, with this (checked) header."""

    header: dict[str, Any]
    label: str | None
    name: str  # what its messages call the game


class _Peek:
    """A stream of headers and hands that can look one item ahead."""

    def __init__(self, items: Iterator[Head | RawHand]) -> None:
        self.items = items
        self.ahead: Head | RawHand | None = None
        self.done = False

    def peek(self) -> Head | RawHand | None:
        if self.ahead is None and not self.done:
            self.ahead = next(self.items, None)
            self.done = self.ahead is None
        return self.ahead

    def take(self) -> Head | RawHand:
        assert self.ahead is not None
        item, self.ahead = self.ahead, None
        return item


def _section(shared: _Peek) -> Iterator[RawHand]:
    """The hands up to the next header."""
    while isinstance(shared.peek(), RawHand):
        hand = shared.take()
        assert isinstance(hand, RawHand)
        yield hand


def sections(items: Iterator[Head | RawHand]) -> Iterator[GameFile]:
    """Each game in turn, its header and hands read from the one shared stream as its fold reaches them:
    nothing of a game is kept once the next one begins."""
    shared = _Peek(items)
    while (head := shared.peek()) is not None:
        shared.take()
        assert isinstance(head, Head), "a file's stream begins with a header"
        hands = _section(shared)
        game = check_header(head.header, hands, head.name)
        yield replace(game, label=head.label) if head.label is not None else game
        del game
        for _ in hands:  # whatever the caller left of this game
            pass
