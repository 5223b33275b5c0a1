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
from dataclasses import replace
from typing import Any

from ..core.batch_record import check_extra_fields
from ..core.errors import InputError
from . import game_file
from .fields import computed_fields, hand_kinds
from .game_file import GameFile, GameFileError, RawHand, check_header
from .sections import Games, Head, check_in, place, sections, with_defaults
from .yaml_file import NEW_GAME, is_yaml_list, walk, yaml_game

__all__ = ["Games", "open_game", "open_games", "read_game", "split_extra"]


def _bad(message: str, **params: object) -> GameFileError:
    return GameFileError("bad_game", message, None, None, **params)


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
        game_file._check_encoding(raw, name)
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


def open_games(name: str, defaults: Mapping[str, Any] | None = None, extra_fields: str = "error", sheet: str | None = None) -> Games:
    """Every game of a game file (`-` is stdin): YAML (one game or a list), JSON Lines, a CSV log (UTF-8 or
    GB18030), or a workbook (.xlsx) read as a CSV log: its first sheet, `sheet` by name, or every sheet (`all`)."""
    defaults = dict(defaults or {})
    check_extra_fields(extra_fields)
    raw = game_file._open(name)
    try:
        if _is_xlsx(name, raw):
            from .sheet_log import xlsx_games

            return xlsx_games(name, raw, defaults, extra_fields, sheet)
        csv = _is_csv(name, raw)
        encoding = game_file._check_encoding(raw, name, csv)
        if csv:
            from .sheet_log import csv_games

            return csv_games(name, raw, defaults, extra_fields, encoding)
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


def _is_xlsx(name: str, raw: Any) -> bool:
    """A workbook: named `.xlsx` or `.xlsm`, or (stdin, another name) a zip file's first bytes."""
    head = raw.read(4)
    raw.seek(0)
    return name.lower().endswith((".xlsx", ".xlsm")) or head == b"PK\x03\x04"


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

    def items() -> Iterator[Head | RawHand]:
        count = 0
        with lines:
            try:
                for line_no, line in enumerate(lines, 1):
                    head = _jsonl_header(line)
                    if head is not None:
                        count = 0
                        yield Head(with_defaults(head, defaults, place(name, line_no)), None, name)
                        continue
                    if not line.strip():
                        continue
                    count += 1
                    try:
                        raw = RawHand(count, json.loads(line), line=line_no)
                        yield raw if mode != "keep" else _keep(raw, mode)
                    except (ValueError, RecursionError) as exc:
                        yield RawHand(count, None, InputError("bad_json", "line {line_no}: not valid JSON ({exc})", line_no=line_no, exc=exc), line=line_no)
            except OSError as exc:
                raise game_file._fail_read(name, exc) from None

    return Games(count, sections(items()))


def _jsonl_head(name: str, line_no: int, head: dict[str, Any], defaults: dict[str, Any]) -> None:
    """One header line of a file of several games, checked (and then let go)."""
    if "hands" in head:
        raise _bad("{name}: line {line_no}: in JSON Lines the hands follow the header, one per line", name=name, line_no=line_no)
    where = place(name, line_no)
    check_in(with_defaults(head, defaults, where), where)


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
        checked.append(with_defaults(head, defaults, place(name, game=i)))
        check_in(checked[-1], place(name, game=i))

    def items() -> Iterator[Head | RawHand]:
        game, count = -1, 0
        for value in walk(name, text, {}, []):
            if value is NEW_GAME:
                game, count = game + 1, 0
                yield Head(checked[game], None, name if len(checked) == 1 else place(name, game=game + 1))
                continue
            count += 1
            yield _keep(RawHand(count, value), mode)

    return Games(len(checked), sections(items()))


# --- the sections of one file ------------------------------------------------------------
