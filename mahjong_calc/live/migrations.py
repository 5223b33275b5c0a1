"""The games database's schema, version by version (`PRAGMA user_version`), and the check of
the file itself before SQLite opens it: a file that is not an SQLite database, or one whose
header or length is damaged, is never taken for an empty database."""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
from collections.abc import Callable
from pathlib import Path

from ..core.words import N_, Text
from .model import make_token


def _v1(db: sqlite3.Connection) -> None:
    db.execute(
        "CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT NOT NULL, header TEXT NOT NULL)"
    )
    db.execute(
        "CREATE TABLE events (game INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,"
        " kind TEXT NOT NULL CHECK (kind IN ('hand', 'undo')), body TEXT NOT NULL, at TEXT NOT NULL,"
        " PRIMARY KEY (game, seq))"
    )


def _v2(db: sqlite3.Connection) -> None:
    """Per-game access tokens, for `mjcalc serve --host` on a network."""
    db.execute("ALTER TABLE games ADD COLUMN token TEXT")
    for (game_id,) in db.execute("SELECT id FROM games").fetchall():
        db.execute("UPDATE games SET token = ? WHERE id = ?", (make_token(), game_id))


def _v3(db: sqlite3.Connection) -> None:
    """Each game's count of events, kept with every write: a damaged file that loses rows is told apart."""
    db.execute("ALTER TABLE games ADD COLUMN events INTEGER NOT NULL DEFAULT 0")
    db.execute("UPDATE games SET events = (SELECT count(*) FROM events WHERE events.game = games.id)")


def _v4(db: sqlite3.Connection) -> None:
    """Events that correct the game: `edit`, `delete` and `redo` (SQLite cannot alter a CHECK: the table is rebuilt)."""
    db.execute(
        "CREATE TABLE events_v4 (game INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,"
        f" kind TEXT NOT NULL CHECK (kind IN ({', '.join(repr(k) for k in KINDS)})), body TEXT NOT NULL, at TEXT NOT NULL,"
        " PRIMARY KEY (game, seq))"
    )
    db.execute("INSERT INTO events_v4 (game, seq, kind, body, at) SELECT game, seq, kind, body, at FROM events")
    db.execute("DROP TABLE events")
    db.execute("ALTER TABLE events_v4 RENAME TO events")


KINDS = ("hand", "undo", "redo", "edit", "delete")  # the kinds of event
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_v1, _v2, _v3, _v4)  # MIGRATIONS[n] takes version n to n + 1
SCHEMA_VERSION = len(MIGRATIONS)
PLAUSIBLE_VERSIONS = 1000  # a version beyond this is a damaged header, not a newer mjcalc


MAGIC = b"SQLite format 3\x00"


def file_problem(path: Path) -> Text | None:
    """What is wrong with the file at `path` before SQLite reads it, or None: SQLite itself takes
    a file of a few bytes for an empty database, and writes into one whose last page is cut
    short, so its length and header are checked here (a missing or empty file is a new database)."""
    try:
        info = path.stat()
        size = info.st_size
        if size == 0 or not stat.S_ISREG(info.st_mode):
            return None
        head = os.pread(_reader(info.st_dev, info.st_ino, path), 100, 0)
    except OSError:
        return None  # SQLite says what is wrong with it
    if len(head) < 100 or head[:16] != MAGIC:
        if not head:
            return N_("it is not an SQLite database ({size} bytes)", size=f"{size:,}")
        return N_("it is not an SQLite database ({size} bytes, it begins {start})", size=f"{size:,}", start=repr(head[:16])[1:])
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    if page < 512 or page & (page - 1):
        return N_("its header is damaged (a page size of {page} bytes)", page=page)
    if head[18] not in (1, 2) or head[19] not in (1, 2) or head[21:24] != b"\x40\x20\x20":
        return N_("its header is damaged (the file format bytes are none SQLite writes)")
    if int.from_bytes(head[44:48], "big") > 4 or int.from_bytes(head[56:60], "big") not in (0, 1, 2, 3):
        return N_("its header is damaged (the schema format or text encoding is none SQLite writes)")
    if size % page:
        return N_("it is truncated or cut: {size} bytes is not a whole number of its {page}-byte pages", size=f"{size:,}", page=f"{page:,}")
    pages = int.from_bytes(head[28:32], "big")
    if head[24:28] == head[92:96] and pages * page > size:  # the header's page count is valid: the file is short
        return N_("it is truncated: its header counts {pages} pages of {page} bytes, the file has {has}", pages=f"{pages:,}", page=f"{page:,}",
                  has=f"{size // page:,}")
    return None


_READERS: dict[tuple[int, int], int] = {}  # oldest first
KEPT_READERS = 64
_READERS_LOCK = threading.Lock()


def _reader(dev: int, ino: int, path: Path) -> int:
    """A descriptor that reads the file, opened once and never closed: closing any descriptor of a
    file drops every POSIX lock this process holds on it, SQLite's too, and a server whose SQLite
    connections lost their locks lets two writers at once corrupt the file."""
    with _READERS_LOCK:
        fd = _READERS.get((dev, ino))
        if fd is None:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
            got = os.fstat(fd)
            _READERS[(got.st_dev, got.st_ino)] = fd  # the file now at `path` (it may have been replaced meanwhile)
            while len(_READERS) > KEPT_READERS:  # a process that opened many databases (a test run): the oldest go
                os.close(_READERS.pop(next(iter(_READERS))))
        return fd


def foreign_tables(db: sqlite3.Connection) -> list[str]:
    """The tables of a database at schema version 0 (a new games database has none): another program's."""
    return [str(row[0]) for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall()]
