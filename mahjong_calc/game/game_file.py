"""Game records: a game file's bytes (bounded, UTF-8), JSON Lines with a header line, and the header checked.

A game names the variant (or `rules:` a ruleset file), the four players in seat order
E S W N, the first dealer, optionally the starting 子 (`chips`; 0 keeps no 子 ledger), then the hands in order.
The header is checked here, once: a bad header makes the whole game meaningless and is
a `GameFileError` (exit 2). Each hand stays raw until the engine reaches it, so that a
bad hand is an error row with its number and the other hands are still settled.
The contract ships as JSON Schema in `mahjong_calc/game.schema.json`.
"""

from __future__ import annotations

import codecs
import errno
import io
import json
import os
import re
import stat
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from ..core.errors import InputError, MjcalcError, shown
from ..core.seats import seat_index
from ..rules.loader import load_ruleset
from ..rules.ruleset import Ruleset
from ..rules.schema import INTEGERS
from .fields import not_in_a_line

HEADER_KEYS = ("variant", "rules", "players", "dealer", "chips", "date", "hands")
MAX_GAME_BYTES = 64 << 20  # bytes in one game file (64 MiB): millions of hands, far below trouble
MAX_CHIPS = int(INTEGERS.hi)  # the starting 子, bounded as every ruleset number is
MAX_NAME = 32  # characters in a player's name: a table's name fits a phone's column


class GameFileError(InputError):
    """The game file cannot be read, or its header makes every hand meaningless (exit 2)."""


@dataclass(frozen=True)
class RawHand:
    """One hand as written: its number (1-based), its value, and an error if it could not even be read."""

    no: int
    value: Any
    error: MjcalcError | None = None
    extra: Mapping[str, Any] | None = None  # with --extra-fields keep: what the hand holds beyond its fields, echoed
    line: int | None = None  # where the hand starts in its file (a CSV log's row, a JSON Lines line); None: not known


@dataclass(frozen=True)
class GameFile:
    """A read game: the checked header, and the hands still raw."""

    ruleset: Ruleset[Any, Any, Any]
    players: tuple[str, str, str, str]
    dealer: int  # the first dealer's seat, 0..3 = E S W N
    chips: int | None  # the starting 子; 0: no 子 ledger; None: the ruleset's default
    hands: Iterable[RawHand]  # a tuple, or (open_game of JSON Lines) read once as the fold reaches each hand
    header: Mapping[str, Any]
    label: str | None = None  # a CSV log's `game` cell: which game of the file this is


def schema_path() -> Path:
    """The JSON Schema of a game record, shipped inside the package."""
    return Path(__file__).resolve().parent.parent / "game.schema.json"


def load_schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(schema_path().read_text(encoding="utf-8"))
    return schema


def file_error(code: str, message: str, **params: object) -> GameFileError:
    return GameFileError(code, message, None, None, **params)


def bad_file(message: str, **params: object) -> GameFileError:
    return file_error("bad_game", message, **params)


def _fail_read(name: str, exc: OSError | ValueError) -> GameFileError:
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return file_error("game_not_found", "{name}: cannot read the game file ({reason})", name=name, reason=reason)


def _too_large(name: str) -> GameFileError:
    return file_error("game_too_large", "{name}: the game file is larger than {max_game_bytes:,} bytes ({value:g} MiB, the limit for one game)",
        name=name, max_game_bytes=MAX_GAME_BYTES, value=MAX_GAME_BYTES / 2**20)


def _open(name: str) -> BinaryIO:
    """The game file's bytes, seekable and at most MAX_GAME_BYTES: a regular file, or stdin read whole.

    A file is opened non-blocking (a FIFO must not hang the open) and checked to be a
    regular file before a byte is read; /dev/zero or a FIFO would never end.
    """
    if name == "-":
        if sys.stdin is None:
            raise file_error("game_not_found", "-: standard input is closed")
        try:
            data = sys.stdin.buffer.read(MAX_GAME_BYTES + 1)
        except OSError as exc:
            raise _fail_read(name, exc) from None
        if len(data) > MAX_GAME_BYTES:
            raise _too_large(name)
        return io.BytesIO(data)
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise _fail_read(name, exc) from None
    mode, size = (st := os.fstat(fd)).st_mode, st.st_size
    if stat.S_ISDIR(mode):
        os.close(fd)
        raise _fail_read(name, IsADirectoryError(errno.EISDIR, "Is a directory"))
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise file_error("game_not_a_file", "{name}: not a regular file (a FIFO, socket or device); give a file, or - to read stdin", name=name)
    if size > MAX_GAME_BYTES:
        os.close(fd)
        raise _too_large(name)
    return io.BufferedReader(_Bounded(fd, name), 1 << 16)


class _Bounded(io.FileIO):
    """A game file that refuses to read past MAX_GAME_BYTES (a file that grows as it is read)."""

    def __init__(self, fd: int, name: str) -> None:
        super().__init__(fd, "rb", closefd=True)
        self.shown_name = name

    def readinto(self, buffer: Any) -> int:
        n = super().readinto(buffer)
        if n and self.tell() > MAX_GAME_BYTES:
            raise _too_large(self.shown_name)
        return n or 0


UTF8, GB18030 = "utf-8", "gb18030"  # what a game file may be written in: UTF-8; a CSV log also GB18030 (Chinese Excel's GBK)


def _decodes(raw: BinaryIO, encoding: str) -> bool:
    """Whether the whole file is text in `encoding` (one pass, in chunks); the file is left at its start."""
    decoder = codecs.getincrementaldecoder(encoding)()
    try:
        while chunk := raw.read(1 << 20):
            decoder.decode(chunk)
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    finally:
        raw.seek(0)
    return True


def _first_bad_line(raw: BinaryIO, encodings: tuple[str, ...]) -> int:
    """The line where the file stops being text in the encoding it reads furthest in."""
    lines = raw.read().splitlines()
    raw.seek(0)
    furthest = 1
    for encoding in encodings:
        for number, line in enumerate(lines, 1):
            try:
                line.decode(encoding)
            except UnicodeDecodeError:
                furthest = max(furthest, number)
                break
    return furthest


def _check_encoding(raw: BinaryIO, name: str, csv: bool = False) -> str:
    """The file's encoding, checked whole before a hand is settled: UTF-8 (a BOM is read past) or, for a CSV log,
    GB18030 (which reads GBK); anything else is `bad_encoding`, naming the first line that is not."""
    try:
        if _decodes(raw, UTF8):
            return UTF8
        if csv and _decodes(raw, GB18030):
            return GB18030
        line = _first_bad_line(raw, (UTF8, GB18030) if csv else (UTF8,))
    except OSError as exc:
        raise _fail_read(name, exc) from None
    if csv:
        raise file_error("bad_encoding", "{name}: line {line}: neither UTF-8 nor GB18030 (GBK) text; save the file as UTF-8", name=name, line=line)
    raise file_error("bad_encoding", "{name}: line {line}: not UTF-8 text; the game file must be UTF-8", name=name, line=line)


def _text(raw: BinaryIO) -> io.TextIOWrapper:
    """The file as text lines (UTF-8, a BOM read past); \\r, \\n and \\r\\n all end a line."""
    return io.TextIOWrapper(raw, encoding="utf-8-sig", newline=None)


def _is_jsonl(name: str, lines: io.TextIOWrapper) -> bool:
    lower = name.lower()
    if lower.endswith((".jsonl", ".ndjson")):
        return True
    if lower.endswith((".yaml", ".yml", ".json")):
        return False
    for line in lines:
        if line.strip():
            first = line.strip()
            break
    else:
        return False
    if not first.startswith("{"):
        return False
    try:
        head = json.loads(first)
    except ValueError:
        return False
    return isinstance(head, dict) and "hands" not in head


def _jsonl(name: str, lines: io.TextIOWrapper) -> tuple[dict[str, Any], Iterator[RawHand]]:
    """The header line, read now; the hands, read one line at a time as the fold reaches them."""
    line_no = 0
    for line in lines:
        line_no += 1
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except (ValueError, RecursionError) as exc:
            raise bad_file("{name}: line {line_no}: the header is not valid JSON ({exc})", name=name, line_no=line_no, exc=exc) from None
        if not isinstance(value, dict):
            raise bad_file("{name}: line {line_no}: the header must be an object with variant, players, dealer", name=name, line_no=line_no)
        if "hands" in value:
            raise bad_file("{name}: line {line_no}: in JSON Lines the hands follow the header, one per line", name=name, line_no=line_no)
        return value, _jsonl_hands(name, lines, line_no)
    raise bad_file("{name}: the file is empty; the first line is the header", name=name)


def _jsonl_hands(name: str, lines: io.TextIOWrapper, line_no: int) -> Iterator[RawHand]:
    count = 0
    with lines:
        try:
            for line in lines:
                line_no += 1
                if not line.strip():
                    continue
                count += 1
                try:
                    yield RawHand(count, json.loads(line), line=line_no)
                except (ValueError, RecursionError) as exc:
                    yield RawHand(count, None, InputError("bad_json", "line {line_no}: not valid JSON ({exc})", line_no=line_no, exc=exc), line=line_no)
        except OSError as exc:
            raise _fail_read(name, exc) from None


def _check_name(player: str, name: str) -> None:
    """A player's name is shown on every screen and stored with every game: a short line of text."""
    if len(player) > MAX_NAME:
        raise bad_file("{name}: players: a name is at most {most} characters, not {length} ({start}…)",
                   name=name, most=MAX_NAME, length=len(player), start=player[:12])
    char = not_in_a_line(player)  # an escape would drive a terminal, a bidi override turn the name around
    if char is not None:
        raise bad_file("{name}: players: {player!r} holds the control character U+{point:04X}; a name is a line of letters, digits and spaces",
                   name=name, player=player, point=ord(char))


def check_header(header: Mapping[str, Any], hands: Iterable[RawHand], name: str = "game") -> GameFile:
    """Check the header: one of variant/rules, four distinct players, one dealer among them."""
    for key in header:
        if key not in HEADER_KEYS:
            raise bad_file("{name}: unknown key {key!r} in the header; keys are: {header_keys}", name=name, key=key, header_keys=', '.join(HEADER_KEYS))
    variant, rules = header.get("variant"), header.get("rules")
    if (variant is None) == (rules is None):
        raise bad_file("{name}: give one of variant: (a shipped ruleset) or rules: (a ruleset file)", name=name)
    if not isinstance(variant or rules, str):
        raise bad_file("{name}: {value}: must be a string", name=name, value='variant' if variant is not None else 'rules')
    if rules is not None and name != "-" and not Path(rules).is_absolute():
        rules = str(Path(name).parent / rules)  # a rules file sits beside the game file
    ruleset = load_ruleset(variant, rules)
    players = header.get("players")
    if (
        not isinstance(players, list)
        or len(players) != 4
        or not all(isinstance(p, str) and p.strip() for p in players)
        or len(set(players)) != 4
    ):
        raise bad_file("{name}: players: must be four different names in seat order E S W N, not {players!r}", name=name, players=players)
    for player in players:
        _check_name(player, name)
    names: tuple[str, str, str, str] = tuple(players)
    dealer = header.get("dealer")
    if isinstance(dealer, list):
        raise file_error("two_dealers", "{name}: dealer: one player deals the first hand, not {dealer!r}", name=name, dealer=dealer)
    if not isinstance(dealer, str):
        raise file_error("missing_dealer", "{name}: dealer: name the first hand's dealer (a player or E/S/W/N)", name=name)
    seat = seat_index(dealer, names)
    if seat is None:
        raise file_error("unknown_player", "{name}: dealer: {dealer!r} is not one of the players {names}", name=name, dealer=dealer, names=', '.join(names))
    chips = header.get("chips")
    if chips is not None and (not isinstance(chips, int) or isinstance(chips, bool) or not 0 <= chips <= MAX_CHIPS):
        raise bad_file("{name}: chips: must be a whole number of 子 from 0 (no 子 ledger) to {max_chips:,}, not {chips}",
            name=name, max_chips=MAX_CHIPS, chips=shown(chips))
    checked = dict(header)
    if "date" in header:
        checked["date"] = game_date(header["date"], name)
    return GameFile(ruleset, names, seat, chips, hands if isinstance(hands, Iterator) else tuple(hands), checked)


_DATE = re.compile(r"(\d{4})(?:([-/.])(\d{1,2})\2(\d{1,2})|年(\d{1,2})月(\d{1,2})日)(?:(?:T|\s+)(\d{1,2}):(\d{2})(?::(\d{2}))?)?")


def read_date(text: str) -> str | None:
    """A date as a spreadsheet writes it, as ISO text: `2026-12-05`, `2026/12/5`, `2026-12-5`, `2026.12.5` or
    `2026年12月5日`, each with or without a time (`20:30`, `20:30:15`) after a space (or ISO's `T`); None if it is none."""
    import datetime as dt

    match = _DATE.fullmatch(text.strip())
    if match is None:
        try:  # the rest of ISO 8601 that Python reads (a time zone, fractions of a second)
            return (dt.date.fromisoformat(text) if len(text) == 10 else dt.datetime.fromisoformat(text)).isoformat()
        except ValueError:
            return None
    year, _, month, day, month_zh, day_zh, hour, minute, second = match.groups()
    try:
        date = dt.date(int(year), int(month or month_zh), int(day or day_zh))
        if hour is None:
            return date.isoformat()
        return dt.datetime.combine(date, dt.time(int(hour), int(minute), int(second or 0))).isoformat()
    except ValueError:  # a day that does not exist (2026/2/30), an hour of 25
        return None


def game_date(value: Any, name: str = "game") -> str:
    """A `date` header field as ISO text (`2026-11-30`, or a date and time; `read_date`'s spreadsheet forms too);
    YAML's dates are taken as they are."""
    import datetime as dt

    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str) and (read := read_date(value)) is not None:
        return read
    raise bad_file("{name}: date: must be a date such as 2026-12-05, 2026/12/5, 2026.12.5 or 2026年12月5日 (a time such as 20:30 may follow), "
               "not {value}", name=name, value=shown(value))
