"""Open any game file: `open_game` one game, `open_games` every game of a file of many (a CSV
log, one row per hand; JSON Lines with a header per game; a YAML list of games).

`open_games(name)` gives the games one after another; a file of one game (YAML mapping,
JSON Lines with one header, a CSV log of one game) gives exactly the `GameFile` that
`open_game` gives. Every game's header is checked before the first hand is settled, so a
bad header anywhere is exit 2 with nothing printed. Each game's hands are read as the fold
reaches them: iterate the games in order, and each game's hands before the next. In a CSV
log (`csv_log.py`), `defaults` (the CLI's `--variant`, `--players`, `--dealer`) fill in a
header field no row gives.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..core.batch_record import check_extra_fields
from ..core.errors import InputError, MjcalcError, shown
from . import game_file
from .fields import computed_fields, hand_kinds
from .game_file import GameFile, GameFileError, RawHand, check_header
from .yaml_file import NEW_GAME, is_yaml_list, walk, yaml_game


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


def open_game(name: str) -> GameFile:
    """Read and check a game file's header (`-` is stdin): YAML, or JSON Lines with a header line;
    the hands of JSON Lines are read as they are settled.

    The file must be a regular file (or stdin) of at most MAX_GAME_BYTES and UTF-8 throughout;
    iterate `hands` once. `read_game` reads every hand at once.
    """
    raw = game_file._open(name)
    try:
        game_file._check_utf8(raw, name)
        lines = game_file._text(raw)
        jsonl = game_file._is_jsonl(name, lines)
        lines.seek(0)
        if jsonl:
            header, stream = game_file._jsonl(name, lines)
            return check_header(header, stream, name)
        with lines:
            text = lines.read()
    except BaseException:
        raw.close()
        raise
    header, hands = yaml_game(name, text)
    return check_header(header, hands, name)


def read_game(name: str) -> GameFile:
    """Read and check a game file (`-` is stdin): YAML, or JSON Lines with a header line."""
    game = open_game(name)
    return replace(game, hands=tuple(game.hands))


def open_games(name: str, defaults: Mapping[str, Any] | None = None, extra_fields: str = "error") -> Games:
    """Every game of a game file (`-` is stdin): YAML (one game or a list), JSON Lines, or a CSV log."""
    defaults = dict(defaults or {})
    check_extra_fields(extra_fields)
    raw = game_file._open(name)
    try:
        game_file._check_utf8(raw, name)
        if _is_csv(name, raw):
            return _csv_games(name, raw, defaults, extra_fields)
        lines = game_file._text(raw)
        jsonl = game_file._is_jsonl(name, lines)
        lines.seek(0)
        if jsonl:
            return _jsonl_games(name, lines, defaults, extra_fields)
        with lines:
            text = lines.read()
    except BaseException:
        raw.close()
        raise
    if is_yaml_list(text):
        return _yaml_games(name, text, defaults, extra_fields)
    header, hands = yaml_game(name, text)
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
        header, stream = game_file._jsonl(name, lines)
        hands = stream if mode != "keep" else (_keep(h, mode) for h in stream)  # only `keep` takes anything out of a hand
        return Games(1, iter((check_header(with_defaults(header, defaults, name), hands, name),)))

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
                        raw = RawHand(count, json.loads(line))
                        yield raw if mode != "keep" else _keep(raw, mode)
                    except (ValueError, RecursionError) as exc:
                        yield RawHand(count, None, InputError("bad_json", "line {line_no}: not valid JSON ({exc})", line_no=line_no, exc=exc))
            except OSError as exc:
                raise game_file._fail_read(name, exc) from None

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
    for _ in walk(name, text, {}, headers):  # the whole file checked, every header read
        pass
    if not headers:
        raise _bad("{name}: the list of games is empty", name=name)
    checked = []
    for i, head in enumerate(headers, 1):
        checked.append(with_defaults(head, defaults, f"{name}: game {i}"))
        _check(checked[-1], f"{name}: game {i}")

    def items() -> Iterator[_Head | RawHand]:
        game, count = -1, 0
        for value in walk(name, text, {}, []):
            if value is NEW_GAME:
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



def _csv_games(name: str, raw: Any, defaults: dict[str, Any], mode: str) -> Games:
    """Every game's header checked in a first pass that keeps none of them; the second pass builds each again."""
    # the CSV reader (and with it the batch package) only for a CSV log: JSON Lines and YAML start without it
    from ..batch.csv_reader import read_csv
    from ..batch.items import CSV, ERR, BytesRead
    from .csv_log import GAME_COLUMN, header_cells, row_hand, unmarked

    def header_of(line: int, payload: Mapping[str, str], game: str | None) -> dict[str, Any]:
        where = f"{name}: line {line}" + (f" (game {game})" if game is not None else "")
        try:
            header = with_defaults(header_cells(payload), defaults, where)
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
        payload = unmarked(payload)
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
                payload = unmarked(payload)
                label = payload.get(GAME_COLUMN)
                if not started or label != current:
                    started, count, first, current = True, 0, payload, label
                    yield _Head(header_of(line, payload, label), label, f"{name}: game {label}" if several else name)
                count += 1
                yield row_hand(payload, first, line, count, mode)
        finally:
            raw.close()

    return Games(count, _sections(items()))
