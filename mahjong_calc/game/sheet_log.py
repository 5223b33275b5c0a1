"""A CSV log or a workbook (.xlsx) cut into games: one row per hand, a `game` column, the header fields on each
game's first row (`csv_log.py` reads the cells). Every game's header is checked in a first pass, which also sees a
`dealer` column filled down a game (a spreadsheet's habit: the first dealer on every row); the second pass builds
each game again as its fold reaches it."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from ..core.errors import InputError
from ..core.words import N_, Text
from .game_file import GameFileError, RawHand
from .sections import Games, Head, check_in, place, placed, sections, with_defaults


def _bad(message: str, **params: object) -> GameFileError:
    return GameFileError("bad_game", message, None, None, **params)


def csv_games(name: str, raw: Any, defaults: dict[str, Any], mode: str, encoding: str) -> Games:
    """A CSV log: its rows read twice (`_log_games`), in the encoding the whole file was checked to be in."""
    # the CSV reader (and with it the batch package) only for a CSV log: JSON Lines and YAML start without it
    from ..batch.csv_reader import read_csv
    from ..batch.items import ENCODING_NAMES, BytesRead

    def rows() -> Iterator[tuple[int, str, Any]]:
        raw.seek(0)
        return read_csv(raw, BytesRead(), encoding)

    read_as = N_("{name}: read as {encoding}", name=name, encoding=ENCODING_NAMES[encoding if encoding != "utf-8" else _utf8(raw)])
    return _log_games(name, rows, raw.close, defaults, mode, details=(read_as,))


def _utf8(raw: Any) -> str | None:
    """UTF-8, UTF-8 with a BOM, or None: ASCII alone."""
    head = raw.read(3)
    raw.seek(0)
    if head == b"\xef\xbb\xbf":
        return "utf-8-sig"
    for chunk in iter(lambda: raw.read(1 << 20), b""):
        if not chunk.isascii():
            raw.seek(0)
            return "utf-8"
    raw.seek(0)
    return None


def xlsx_games(name: str, raw: Any, defaults: dict[str, Any], mode: str, sheet: str | None) -> Games:
    """A workbook read as a CSV log: each chosen sheet's rows, its own header row first. With several sheets,
    each game is named by its sheet too (`第一晚:1`, or the sheet's name when it has no `game` column)."""
    from ..batch.items import CSV
    from ..batch.xlsx import Workbook
    from .csv_log import GAME_COLUMN

    try:
        book = Workbook(raw, name, sheet)
    except BaseException:
        raw.close()
        raise
    several = len(book.sheets) > 1

    def rows() -> Iterator[tuple[int, str, Any]]:
        for one in book.sheets:
            for line, kind, payload in book.rows(one):
                if several and kind == CSV:
                    label = payload.get(GAME_COLUMN, "")
                    payload = {**payload, GAME_COLUMN: f"{one}:{label}" if label else one}
                yield line, kind, payload

    def close() -> None:
        book.close()
        raw.close()

    notes = (N_("{name}: the workbook's other sheet(s) {others} were not read (--sheet NAME or --sheet all reads them)",
                name=name, others=", ".join(book.others)),) if book.others and sheet is None else ()
    details = (N_("{name}: read sheet(s) {sheets}", name=name, sheets=", ".join(book.sheets)),)
    try:
        return _log_games(name, rows, close, defaults, mode, notes, details)
    except BaseException:
        close()
        raise


def _log_games(name: str, rows: Callable[[], Iterator[tuple[int, str, Any]]], close: Callable[[], None], defaults: dict[str, Any],
               mode: str, notes: tuple[Text, ...] = (), details: tuple[Text, ...] = ()) -> Games:
    """The games of a CSV log (or a workbook's rows): every game's header checked in a first pass that keeps none
    of them, and each game's `dealer` column looked at (one name on every row: a spreadsheet's fill-down, read as
    the first dealer alone); the second pass builds each game again as its fold reaches it."""
    from ..batch.items import CSV, ERR
    from .csv_log import GAME_COLUMN, header_cells, row_hand, unmarked

    def header_of(line: int, payload: Mapping[str, str], game: str | None) -> dict[str, Any]:
        where = place(name, line, game)
        try:
            header = with_defaults(header_cells(payload), defaults, where)
        except GameFileError as err:
            raise placed(err, where) from None
        check_in(header, where)
        return header

    count = 0
    label: str | None = None
    filled: dict[int, str] = {}  # game (counted from 1) -> its label, for each game whose dealer column is filled down
    dealer, same, length = "", False, 0  # this game's first dealer cell, whether every row repeats it, its rows

    def game_done() -> None:
        if same and length > 1:
            filled[count] = label if label is not None else str(count)

    for line, kind, payload in rows():
        if kind == ERR:
            message = payload[1]
            if message.startswith(("the header repeats", "the header has")):
                raise _bad("{name}: {detail}", name=name, detail=message)
            if not count:
                raise _bad("{name}: line {line}: the first row cannot be read ({detail})", name=name, line=line, detail=message)
            continue
        payload = unmarked(payload)
        game = payload.get(GAME_COLUMN)
        if count and game == label:
            length += 1
            same = same and payload.get("dealer", "").strip() == dealer
            continue
        if count:
            game_done()
        label = game
        header_of(line, payload, game)
        count += 1
        dealer = payload.get("dealer", "").strip()
        same, length = dealer != "", 1
    if not count:
        close()
        raise _bad("{name}: the CSV log has no rows (a header row, then one row per hand)", name=name)
    game_done()
    several = count > 1
    if filled:
        notes += (N_("{name}: the dealer column repeats one name on every row of game(s) {games}: read as each game's first dealer, "
                     "not as each hand's", name=name, games=", ".join(filled.values())),)

    def items() -> Iterator[Head | RawHand]:
        count = 0
        number = 0  # the game, counted from 1
        started = False
        first: Mapping[str, str] = {}
        current: str | None = None
        try:
            for line, kind, payload in rows():
                if kind == ERR:
                    count += 1
                    yield RawHand(count, None, InputError(payload[0], "line {line}: {payload}", line=line, payload=payload[1]), line=line)
                    continue
                assert kind == CSV
                payload = unmarked(payload)
                label = payload.get(GAME_COLUMN)
                if not started or label != current:
                    started, count, first, current = True, 0, payload, label
                    number += 1
                    yield Head(header_of(line, payload, label), label, place(name, game=label) if several else name)
                count += 1
                yield row_hand(payload, first, line, count, mode, number in filled)
        finally:
            close()

    return Games(count, sections(items()), notes, details)
