"""Files of many games: a CSV log (one row per hand), JSON Lines with a header per game, a YAML list of games.

`open_games(name)` reads any game file and gives its games one after another; a file of
one game (YAML mapping, JSON Lines with one header, a CSV log of one game) gives exactly
the `GameFile` that `open_game` gives. Every game's header is checked before the first hand
is settled, so a bad header anywhere is exit 2 with nothing printed. Each game's hands are
read as the fold reaches them: iterate the games in order, and each game's hands before the next.

A CSV log has a header row naming its columns: the fields of a game-record hand
(`winner`, `discarder`, `self_draw`, `hand`, `melds` space-separated, ...), a `game` column
(consecutive rows with the same value are one game) and the header fields (`variant`,
`rules`, `players` comma-separated, `dealer`, `chips`, `date`) on the first row of each
game; `defaults` (the CLI's `--variant`, `--players`, `--dealer`) fill in a header field no
row gives.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..batch.output import neutralise, unneutralise
from ..batch.readers import CSV, ERR, BytesRead, read_csv
from ..core.batch_record import _cell as record_cell
from ..core.batch_record import check_extra_fields
from ..core.errors import InputError, MjcalcError, shown
from ..core.words import N_
from . import record
from .engine import computed_fields, hand_kinds
from .record import GameFile, GameFileError, RawHand, check_header

GAME_COLUMN = "game"
# header fields a CSV log gives as columns, on the first row of each game (`dealer` on a later row is the hand's check)
HEADER_COLUMNS = tuple(k for k in record.HEADER_KEYS if k != "hands")
_JSON_KINDS = frozenset(("exposed", "hua", "winners", "pungs"))  # a CSV cell holding one of these is JSON (or 2,0,1 for pungs)
_LIST_KINDS = frozenset(("list",))  # space-separated


@dataclass(frozen=True)
class Games:
    """The games of one file, in order: `count` of them; iterate once."""

    count: int
    games: Iterator[GameFile]

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


def _check(header: Mapping[str, Any], where: str) -> None:
    """A header of a file of several games, checked before any hand; the message says which game."""
    try:
        check_header(header, (), where)
    except MjcalcError as err:
        if err.message.startswith(where):
            raise
        raise type(err)(err.code, f"{where}: {err.message}") from None


def _cell_text(value: Any) -> str:
    return ",".join(value) if isinstance(value, list) else str(value)


def split_extra(value: Any, mode: str, known: frozenset[str] = frozenset()) -> tuple[Any, dict[str, Any] | None]:
    """With `keep`, a hand's keys that are not fields, taken out (to be echoed under "extra"); else the hand as it is."""
    if mode != "keep" or not isinstance(value, dict):
        return value, None
    extra = {k: v for k, v in value.items() if not (isinstance(k, str) and (k in hand_kinds() or k in computed_fields() or k in known))}
    if not extra:
        return value, None
    return {k: v for k, v in value.items() if k not in extra}, extra


def _keep(raw: RawHand, mode: str) -> RawHand:
    value, extra = split_extra(raw.value, mode)
    return raw if extra is None else replace(raw, value=value, extra=extra)


def open_games(name: str, defaults: Mapping[str, Any] | None = None, extra_fields: str = "error") -> Games:
    """Every game of a game file (`-` is stdin): YAML (one game or a list), JSON Lines, or a CSV log."""
    defaults = dict(defaults or {})
    check_extra_fields(extra_fields)
    raw = record._open(name)
    try:
        record._check_utf8(raw, name)
        if _is_csv(name, raw):
            return _csv_games(name, raw, defaults, extra_fields)
        lines = record._text(raw)
        jsonl = record._is_jsonl(name, lines)
        lines.seek(0)
        if jsonl:
            return _jsonl_games(name, lines, defaults, extra_fields)
        with lines:
            text = lines.read()
    except BaseException:
        raw.close()
        raise
    if record.is_yaml_list(text):
        return _yaml_games(name, text, defaults, extra_fields)
    header, hands = record._yaml(name, text)
    game = check_header(with_defaults(header, defaults, name), (_keep(h, extra_fields) for h in hands), name)
    return Games(1, iter((game,)))


def _is_csv(name: str, raw: Any) -> bool:
    """A `.csv` file; or, for stdin or another name, a first line that is a row of column names."""
    lower = name.lower()
    if lower.endswith(".csv"):
        return True
    if lower.endswith((".jsonl", ".ndjson", ".yaml", ".yml", ".json")):
        return False
    first = b""
    for line in raw:
        if line.strip():
            first = line.strip()
            break
    raw.seek(0)
    text = first.decode("utf-8", "replace")
    return "," in text and ":" not in text and not text.startswith(("{", "-", "#", "[", "%"))


# --- JSON Lines --------------------------------------------------------------------------

_HEADER_MARK = '"players"'  # a line without it is a hand, not a header


def _jsonl_header(line: str) -> dict[str, Any] | None:
    """The header a line holds, if it is one: an object with players (which no hand has)."""
    if _HEADER_MARK not in line:
        return None
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if isinstance(value, dict) and "players" in value:
        return value
    return None


def _jsonl_games(name: str, lines: io.TextIOWrapper, defaults: dict[str, Any], mode: str) -> Games:
    """Every header checked in a first pass that keeps none of them; the second pass reads each again as it comes."""
    count, first_line = 0, 0
    first: tuple[int, dict[str, Any]] | None = None  # the first header, checked once a second one shows the file holds several
    for line_no, line in enumerate(lines, 1):
        if not first_line and line.strip():
            first_line = line_no
        head = _jsonl_header(line)
        if head is None:
            continue
        count += 1
        if first is None:
            first = (line_no, head)
            continue
        if count == 2:
            if first_line != first[0]:
                raise _bad("{name}: line {first}: in JSON Lines a game's header comes before its hands", name=name, first=first_line)
            _jsonl_head(name, *first, defaults)
        _jsonl_head(name, line_no, head, defaults)
    lines.seek(0)
    if count <= 1:  # one game: the one-game reader, which says what is wrong with its first line
        header, stream = record._jsonl(name, lines)
        return Games(1, iter((check_header(with_defaults(header, defaults, name), (_keep(h, mode) for h in stream), name),)))

    def items() -> Iterator[_Head | RawHand]:
        count = 0
        with lines:
            try:
                for line_no, line in enumerate(lines, 1):
                    head = _jsonl_header(line)
                    if head is not None:
                        count = 0
                        yield _Head(with_defaults(head, defaults, f"{name}: line {line_no}"), None, name)
                        continue
                    if not line.strip():
                        continue
                    count += 1
                    try:
                        yield _keep(RawHand(count, json.loads(line)), mode)
                    except (ValueError, RecursionError) as exc:
                        yield RawHand(count, None, InputError("bad_json", "line {line_no}: not valid JSON ({exc})", line_no=line_no, exc=exc))
            except OSError as exc:
                raise record._fail_read(name, exc) from None

    return Games(count, _sections(items()))


def _jsonl_head(name: str, line_no: int, head: dict[str, Any], defaults: dict[str, Any]) -> None:
    """One header line of a file of several games, checked (and then let go)."""
    if "hands" in head:
        raise _bad("{name}: line {line_no}: in JSON Lines the hands follow the header, one per line", name=name, line_no=line_no)
    _check(with_defaults(head, defaults, f"{name}: line {line_no}"), f"{name}: line {line_no}")


# --- YAML --------------------------------------------------------------------------------


def _yaml_games(name: str, text: str, defaults: dict[str, Any], mode: str) -> Games:
    """A YAML list of games: its headers are kept (a game's keys may follow its hands), the text is in memory anyway."""
    headers: list[dict[str, Any]] = []
    for _ in record._yaml_walk(name, text, {}, headers):  # the whole file checked, every header read
        pass
    if not headers:
        raise _bad("{name}: the list of games is empty", name=name)
    checked = []
    for i, head in enumerate(headers, 1):
        checked.append(with_defaults(head, defaults, f"{name}: game {i}"))
        _check(checked[-1], f"{name}: game {i}")

    def items() -> Iterator[_Head | RawHand]:
        game, count = -1, 0
        for value in record._yaml_walk(name, text, {}, []):
            if value is record.NEW_GAME:
                game, count = game + 1, 0
                yield _Head(checked[game], None, name if len(checked) == 1 else f"{name}: game {game + 1}")
                continue
            count += 1
            yield _keep(RawHand(count, value), mode)

    return Games(len(checked), _sections(items()))


# --- the sections of one file ------------------------------------------------------------


@dataclass(frozen=True)
class _Head:
    """In the stream of a file of several games: the next game begins, with this (checked) header."""

    header: dict[str, Any]
    label: str | None
    name: str  # what its messages call the game


class _Peek:
    """A stream of headers and hands that can look one item ahead."""

    def __init__(self, items: Iterator[_Head | RawHand]) -> None:
        self.items = items
        self.ahead: _Head | RawHand | None = None
        self.done = False

    def peek(self) -> _Head | RawHand | None:
        if self.ahead is None and not self.done:
            self.ahead = next(self.items, None)
            self.done = self.ahead is None
        return self.ahead

    def take(self) -> _Head | RawHand:
        assert self.ahead is not None
        item, self.ahead = self.ahead, None
        return item


def _section(shared: _Peek) -> Iterator[RawHand]:
    """The hands up to the next header."""
    while isinstance(shared.peek(), RawHand):
        hand = shared.take()
        assert isinstance(hand, RawHand)
        yield hand


def _sections(items: Iterator[_Head | RawHand]) -> Iterator[GameFile]:
    """Each game in turn, its header and hands read from the one shared stream as its fold reaches them:
    nothing of a game is kept once the next one begins."""
    shared = _Peek(items)
    while (head := shared.peek()) is not None:
        shared.take()
        assert isinstance(head, _Head), "a file's stream begins with a header"
        hands = _section(shared)
        game = check_header(head.header, hands, head.name)
        yield replace(game, label=head.label) if head.label is not None else game
        del game
        for _ in hands:  # whatever the caller left of this game
            pass


# --- CSV ---------------------------------------------------------------------------------


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


def _header_cells(row: Mapping[str, str]) -> dict[str, Any]:
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
                raise _bad("chips: must be a whole number of 子, not {text}", text=shown(text))
            out[key] = int(digits)
        else:
            out[key] = text.strip()
    return out


def _hand(row: Mapping[str, str], first: Mapping[str, str], line: int, no: int, mode: str) -> RawHand:
    """One row as a hand (a header field on a later row must repeat the first row's, or be empty).

    An error's message is the cell's; its place (`line N: `) is put before it once, below.
    """
    value: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    try:
        for column, text in row.items():
            if column == GAME_COLUMN:
                continue
            if column in HEADER_COLUMNS and column != "dealer":
                if text not in ("", first.get(column, "")):
                    raise InputError("conflicting_fields", "{column}: {text} differs from this game's first row ({value}); "
                                     "a new game needs a new value in the {game_column!r} column",
                        column=column, text=shown(text), value=shown(first.get(column, '')), game_column=GAME_COLUMN)
                continue
            if column == "dealer" and row is first:
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
        return RawHand(no, None, err.within(N_("line {line}", line=line)), extra or None)
    return RawHand(no, value, None, extra or None)


def _unmarked(row: Mapping[str, str]) -> dict[str, str]:
    """A row with `to_csv`'s spreadsheet marks taken off (`'=1+1` is read as `=1+1`)."""
    return {k: unneutralise(v) if isinstance(v, str) else v for k, v in row.items()}


def _csv_games(name: str, raw: Any, defaults: dict[str, Any], mode: str) -> Games:
    """Every game's header checked in a first pass that keeps none of them; the second pass builds each again."""

    def header_of(line: int, payload: Mapping[str, str], game: str | None) -> dict[str, Any]:
        where = f"{name}: line {line}" + (f" (game {game})" if game is not None else "")
        try:
            header = with_defaults(_header_cells(payload), defaults, where)
        except GameFileError as err:
            raise type(err)(err.code, err.message if err.message.startswith(name) else f"{where}: {err.message}") from None
        _check(header, where)
        return header

    count = 0
    label: str | None = None
    for line, kind, payload in read_csv(raw, BytesRead()):
        if kind == ERR:
            message = payload[1]
            if message.startswith("the header repeats"):
                raise _bad("{name}: {detail}", name=name, detail=message)
            if not count:
                raise _bad("{name}: line {line}: the first row cannot be read ({detail})", name=name, line=line, detail=message)
            continue
        payload = _unmarked(payload)
        game = payload.get(GAME_COLUMN)
        if count and game == label:
            continue
        label = game
        header_of(line, payload, game)
        count += 1
    if not count:
        raise _bad("{name}: the CSV log has no rows (a header row, then one row per hand)", name=name)
    raw.seek(0)
    several = count > 1

    def items() -> Iterator[_Head | RawHand]:
        count = 0
        started = False
        first: Mapping[str, str] = {}
        current: str | None = None
        try:
            for line, kind, payload in read_csv(raw, BytesRead()):
                if kind == ERR:
                    count += 1
                    yield RawHand(count, None, InputError(payload[0], "line {line}: {payload}", line=line, payload=payload[1]))
                    continue
                assert kind == CSV
                payload = _unmarked(payload)
                label = payload.get(GAME_COLUMN)
                if not started or label != current:
                    started, count, first, current = True, 0, payload, label
                    yield _Head(header_of(line, payload, label), label, f"{name}: game {label}" if several else name)
                count += 1
                yield _hand(payload, first, line, count, mode)
        finally:
            raw.close()

    return Games(count, _sections(items()))


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


def to_csv(games: Sequence[tuple[str, Mapping[str, Any], Sequence[Mapping[str, Any]]]]) -> str:
    """Games as a CSV log: (label, header, hands) each; the header fields go on each game's first row.

    It reads back as itself: a list of names that a comma or space (or an edge space) would break is
    a JSON array, and a cell a spreadsheet would take for a formula gets a leading `'` (`neutralise`,
    as `stats --csv` and `batch -o csv` write), which the reader takes off again.
    """
    hands_all = [h for _, _, hands in games for h in hands]
    columns = csv_columns(hands_all)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
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
            writer.writerow([neutralise(c) for c in cells])
    return out.getvalue()


def live_csv(game_id: int, header: Mapping[str, Any], created: str, hands: Sequence[Mapping[str, Any]]) -> str:
    """A live game as a one-game CSV log (`game export --format csv`): its number in the game column,
    its creation date as `date` unless its header gives one."""
    head = dict(header)
    head.setdefault("date", created[:10])
    return to_csv([(str(game_id), head, hands)])
