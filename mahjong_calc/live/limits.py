"""What a games database holds at most, and the check of the file before a process first writes it.

A game holds at most `hands` hands in play and `events` events (hands entered, changed, removed,
undone, redone); a hand as stored is at most `record` bytes; past either, the write is refused with
its own code and nothing is written. With `db_bytes` (`mjcalc serve --max-db-mb`), a database that
has grown past it refuses writes (`db_full`), while reads go on. Before its first write, a process
reads the whole file once (`PRAGMA quick_check`): a file damaged in any page is `bad_db`, and left
exactly as it was.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import shown
from .model import StoreError

MAX_HANDS = 1_000  # hands in play in one game: a long evening is a few dozen
MAX_EVENTS = 10_000  # events of one game: every hand entered, changed, removed, undone and redone
MAX_RECORD = 4_096  # bytes of one hand as stored (JSON): a hand of four winners with every field is under 1 KB
DB_MB = 256  # `mjcalc serve --max-db-mb`: the games database's size past which writes are refused


@dataclass(frozen=True)
class StoreLimits:
    """The bounds of a games database: per game, per hand, and (None: none) the file's size in bytes."""

    hands: int = MAX_HANDS
    events: int = MAX_EVENTS
    record: int = MAX_RECORD
    db_bytes: int | None = None


def room_for(game: int, limits: StoreLimits, hands: int, events: int, more_hands: int) -> None:
    """Refuse a write that would take a game past its hands (`too_many_hands`) or events (`too_many_events`)."""
    if events >= limits.events:
        raise StoreError("too_many_events", "game {game} has {count} events (hands entered, changed, removed, undone, redone), "
                         "the most one game keeps: begin a new game to play on", game=game, count=f"{events:,}")
    if more_hands and hands + more_hands > limits.hands:
        raise StoreError("too_many_hands", "game {game} has {count} hands, the most one game holds: begin a new game to play on",
                         game=game, count=f"{hands:,}")


def check_record(text: str, limits: StoreLimits, what: str) -> None:
    """A hand as it will be stored: at most `limits.record` bytes (bad_field)."""
    size = len(text.encode("utf-8"))
    if size > limits.record:
        raise StoreError("bad_field", "{what}: a hand is at most {most:,} bytes as stored (JSON), not {size:,} ({start}…)",
                         what=what, most=limits.record, size=size, start=shown(text[:40], 60))


def db_size(db: sqlite3.Connection, path: Path) -> int:
    """The bytes the database takes: its pages, and its write-ahead log."""
    (pages,) = db.execute("PRAGMA page_count").fetchone()
    (size,) = db.execute("PRAGMA page_size").fetchone()
    try:
        wal = os.stat(f"{path}-wal").st_size
    except OSError:
        wal = 0
    return int(pages) * int(size) + wal


def check_quota(db: sqlite3.Connection, path: Path, limits: StoreLimits) -> None:
    """Refuse a write once the database has grown past `limits.db_bytes` (`db_full`); reads go on."""
    if limits.db_bytes is None:
        return
    size = db_size(db, path)
    if size >= limits.db_bytes:
        raise StoreError("db_full", "{path}: the games database has reached {size:,} bytes, its limit of {limit} MB: "
                         "nothing more is written (reading goes on); export what you keep and begin another with --db",
                         path=path, size=size, limit=f"{limits.db_bytes / 1_000_000:g}")


_CHECKED: set[tuple[str, int, int]] = set()  # the database files this process has read whole, by path and identity
_CHECKING = threading.Lock()


def first_write_check(db: sqlite3.Connection, path: Path) -> str | None:
    """Read the whole file once per process before its first write (`PRAGMA quick_check`): what SQLite
    finds wrong in any page (a table, an index, the free list), or None (also once it has been read)."""
    try:
        info = os.stat(path)
    except OSError:
        return None  # SQLite says what is wrong when it writes
    key = (str(path), info.st_dev, info.st_ino)
    with _CHECKING:
        if key in _CHECKED:
            return None
        problems = [str(row[0]) for row in db.execute("PRAGMA quick_check(3)").fetchall()]
        if problems != ["ok"]:
            return shown("; ".join(problems), 200)
        _CHECKED.add(key)
        return None
