"""A CSV log's cells (one row per hand): a row read as a hand and a game's header, and games written back.

A CSV log has a header row naming its columns: the fields of a game-record hand
(`winner`, `discarder`, `self_draw`, `hand`, `melds` space-separated, ...), a `game` column
(consecutive rows with the same value are one game) and the header fields (`variant`,
`rules`, `players` comma-separated, `dealer`, `chips`, `date`) on the first row of each
game. `log.open_games` reads the rows (`batch/csv_reader.py`) and cuts them into games.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..batch.output import neutralise, unneutralise
from ..core.batch_record import cell as record_cell
from ..core.errors import InputError, MjcalcError, shown
from ..core.words import N_
from . import game_file
from .fields import computed_fields, hand_kinds
from .game_file import RawHand, bad_file

GAME_COLUMN = "game"
# header fields a CSV log gives as columns, on the first row of each game (`dealer` on a later row is the hand's check)
HEADER_COLUMNS = tuple(k for k in game_file.HEADER_KEYS if k != "hands")
_JSON_KINDS = frozenset(("exposed", "hua", "winners", "pungs"))  # a CSV cell holding one of these is JSON (or 2,0,1 for pungs)
_LIST_KINDS = frozenset(("list",))  # space-separated


def _cell(column: str, kind: str, text: str) -> Any:
    """One CSV cell of a hand as the value a YAML hand would hold (the cell is not empty)."""
    if kind in ("bool", "int"):
        return record_cell(column, kind, text)  # as `mjcalc batch` reads a CSV cell
    if kind in _LIST_KINDS or kind == "players":
        if text.lstrip().startswith("["):
            return _names(column, text)
        return text.split() if kind in _LIST_KINDS else [p.strip() for p in text.split(",") if p.strip()]
    if kind == "pungs" and not text.lstrip().startswith("{"):
        return text
    if kind in _JSON_KINDS:
        try:
            return json.loads(text)
        except (ValueError, RecursionError):
            raise InputError("bad_field", "column {column!r} must be JSON (e.g. {json_example}), not {text}",
                column=column, json_example=_JSON_EXAMPLE[kind], text=shown(text)) from None
    return text  # str, player, id


_JSON_EXAMPLE = {"exposed": '{"赵": ["666s@李"]}', "hua": '{"李": 2}', "winners": '[{"winner": "李", "hand": "..."}]',
                 "pungs": '{"李": 2}'}


def _names(column: str, text: str) -> list[str]:
    """A list cell written as a JSON array of strings (what `to_csv` writes when a name has a comma or edge spaces)."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        value = None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError("bad_field", "column {column!r}: a cell starting with [ must be a JSON array of strings, not {text}", column=column, text=shown(text))
    return value


def header_cells(row: Mapping[str, str]) -> dict[str, Any]:
    """The header fields a game's first row gives."""
    out: dict[str, Any] = {}
    for key in HEADER_COLUMNS:
        text = row.get(key, "")
        if text == "":
            continue
        if key == "players":
            out[key] = _names(key, text) if text.lstrip().startswith("[") else [p.strip() for p in text.split(",")]
        elif key == "chips":
            digits = text.strip()
            if not digits.isdigit() or not digits.isascii() or len(digits) > 18:
                raise bad_file("chips: must be a whole number of 子, not {text}", text=shown(text))
            out[key] = int(digits)
        else:
            out[key] = text.strip()
    return out


def row_hand(row: Mapping[str, str], first: Mapping[str, str], line: int, no: int, mode: str, dealer_filled: bool = False) -> RawHand:
    """One row as a hand (a header field on a later row must repeat the first row's, or be empty).

    `dealer_filled`: the game's `dealer` column repeats one name on every row (a spreadsheet's fill-down),
    read as the first dealer alone, not as each hand's check. A cell that cannot be read makes the hand an
    error row; the other cells are still read (a readable `winner` or `draw` still passes the deal on).
    An error's message is the cell's; its place (`line N: `) is put before it once, below.
    """
    value: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    error: MjcalcError | None = None
    for column, text in row.items():
        if column == GAME_COLUMN:
            continue
        try:
            if column in HEADER_COLUMNS and column != "dealer":
                if text not in ("", first.get(column, "")):
                    raise InputError("conflicting_fields", "{column}: {text} differs from this game's first row ({value}); "
                                     "a new game needs a new value in the {game_column!r} column",
                        column=column, text=shown(text), value=shown(first.get(column, '')), game_column=GAME_COLUMN)
                continue
            if column == "dealer" and (row is first or dealer_filled):
                continue  # the first row's dealer is the game's
            kind = hand_kinds().get(column)
            if kind is None or column in computed_fields():
                if mode == "keep":
                    extra[column] = text
                    continue
                value[column] = text  # the engine says what is wrong with it
                continue
            if text == "":
                continue
            value[column] = _cell(column, kind, text)
        except MjcalcError as err:
            error = error or err
            if text != "" and column not in HEADER_COLUMNS:
                value[column] = text  # kept as written: the deal reads only a winner's name or draw: true
    if error is not None:
        return RawHand(no, value, error.within(N_("line {line}", line=line)), extra or None, line)
    return RawHand(no, value, None, extra or None, line)


NOTE_COLUMNS = ("note", "notes", "comment", "comments", "备注", "说明")  # a spreadsheet's column of each hand's note


def unmarked(row: Mapping[str, str]) -> dict[str, str]:
    """A row with `to_csv`'s spreadsheet marks taken off (`'=1+1` is read as `=1+1`), and its note columns
    (`note`, `notes`, `comment`, `备注`, `说明`, any case) as the hand's `note` (several joined by `; `)."""
    out: dict[str, str] = {}
    notes: list[str] | None = None
    for key, text in row.items():
        text = unneutralise(text) if isinstance(text, str) else text
        if isinstance(key, str) and key.strip().lower() in NOTE_COLUMNS:
            notes = notes if notes is not None else []
            if text:
                notes.append(text)
            continue
        out[key] = text
    if notes is not None:
        out["note"] = "; ".join(notes)
    return out


def csv_columns(hands: Sequence[Mapping[str, Any]]) -> list[str]:
    """The columns a CSV log of these hands needs: game, the header fields, then the hand fields used, in field order."""
    used = {k for h in hands for k in h}
    return [GAME_COLUMN, *(k for k in HEADER_COLUMNS), *(k for k in hand_kinds() if k in used and k != "dealer")]


def _plain(values: list[str], separator: str) -> bool:
    """Whether a list of names reads back as itself when joined by `separator` (else it is written as JSON)."""
    def plain(v: str) -> bool:
        if not v or v != v.strip() or v.startswith("["):
            return False
        return not any(ch.isspace() for ch in v) if separator == " " else separator not in v

    return bool(values) and all(plain(v) for v in values)


def _cell_out(value: Any, separator: str = " ") -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return separator.join(value) if _plain(value, separator) else json.dumps(value, ensure_ascii=False)
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def log_rows(games: Sequence[tuple[str, Mapping[str, Any], Sequence[Mapping[str, Any]]]]) -> list[list[str]]:
    """Games as a CSV log's rows, the column names first: (label, header, hands) each; the header fields go on
    each game's first row. A list of names that a comma or space (or an edge space) would break is a JSON array."""
    hands_all = [h for _, _, hands in games for h in hands]
    columns = csv_columns(hands_all)
    rows = [columns]
    for label, header, hands in games:
        if not hands:
            raise InputError("bad_game", "game {label} has no hands yet: a CSV log has one row per hand (export it as YAML)", label=label)
        for i, hand in enumerate(hands):
            head = header if i == 0 else {}
            cells = []
            for column in columns:
                if column == GAME_COLUMN:
                    cells.append(label)
                elif column in HEADER_COLUMNS:
                    cells.append(_cell_out(head.get(column), ",") if i == 0 else _cell_out(hand.get(column)) if column == "dealer" else "")
                elif hand_kinds()[column] == "players":
                    cells.append(_cell_out(hand.get(column), ","))
                else:
                    cells.append(_cell_out(hand.get(column)))
            rows.append(cells)
    return rows


def to_csv(games: Sequence[tuple[str, Mapping[str, Any], Sequence[Mapping[str, Any]]]]) -> str:
    """Games as a CSV log (`log_rows`), which reads back as itself: a cell a spreadsheet would take for a formula
    gets a leading `'` (`neutralise`, as `stats --csv` and `batch -o csv` write), which the reader takes off again.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    rows = log_rows(games)
    writer.writerow(rows[0])
    for cells in rows[1:]:
        writer.writerow([neutralise(c) for c in cells])
    return out.getvalue()


def live_csv(game_id: int, header: Mapping[str, Any], created: str, hands: Sequence[Mapping[str, Any]]) -> str:
    """A live game as a one-game CSV log (`game export --format csv`): its number in the game column,
    its creation date as `date` unless its header gives one."""
    head = dict(header)
    head.setdefault("date", created[:10])
    return to_csv([(str(game_id), head, hands)])
