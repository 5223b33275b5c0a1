"""The SQLite store of live games: a header per game, and an append-only list of events.

Events are `hand` (one hand as entered, a game-record hand: winner, discarder, hand,
melds, ...), `undo` (takes back the last hand still in play; the hand stays in the
history), `redo` (puts back the last hand undone, while nothing else changed since),
`edit` (replaces a hand in play) and `delete` (removes one). Nothing derived is stored:
the hands in play are the fold over the events, and the standings the fold of
`settle_game` over those hands. A game's version is its count of events: a write may
name the version it was made against, and is refused (`stale_version`) when the game
has changed since.

Writes are one transaction each (`BEGIN IMMEDIATE`), and a hand is checked inside
the transaction against the hands already stored, so two processes adding to one
game at once are serialised: neither hand is lost, none is stored twice, and each
is checked against the game as it really stands. `(game, seq)` is the primary key.
The schema carries its version in `PRAGMA user_version` and migrates forward.

A game's fold (live/fold.py) is kept between writes, so that a write settles only the hands
it changes; the bounds of a game and of the file, and the check of the file before a process
first writes it, are live/limits.py's.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.errors import shown
from ..core.words import N_
from .fold import Folded, Folds
from .guard import db_error, guarded
from .limits import StoreLimits, check_quota, check_record, first_write_check, room_for
from .migrations import MIGRATIONS, PLAUSIBLE_VERSIONS, SCHEMA_VERSION, file_problem, foreign_tables
from .model import Change, GameInfo, StoreError, check_text, default_db_path, make_token, now_iso
from .reading import Reading
from .replay import BadEvents, Event, Hands

if TYPE_CHECKING:
    from ..game import HandRow, State

BUSY_TIMEOUT_MS = 30_000  # how long a writer waits for another one before giving up


class Store(Reading):
    """A games database; opening it creates it or migrates it forward.

    A database that cannot be used is `bad_db` (a damaged or truncated file, a missing
    table, a read-only file, a header or hand that is not JSON, events missing), and a
    lock another process holds longer than BUSY_TIMEOUT_MS is `db_busy`: exit 2 each.
    `folds` keeps games folded between Stores of one process (a server's requests);
    `limits` bounds the games and the file (live/limits.py).
    """

    def __init__(self, path: str | Path | None = None, *, migrate_to: int = SCHEMA_VERSION,
                 folds: Folds | None = None, limits: StoreLimits | None = None) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        self.folds = folds if folds is not None else Folds(2)
        self.limits = limits or StoreLimits()
        self._checked = False  # the file was read whole before this Store's first write
        try:
            if str(self.path) != ":memory:":
                self.path.parent.mkdir(parents=True, exist_ok=True)
                problem = file_problem(self.path)
                if problem is not None:
                    raise self._damaged(problem, not_ours=problem.msgid.startswith("it is not"))
            self.db = sqlite3.connect(str(self.path), isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
            self.db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self.db.execute("PRAGMA foreign_keys = ON")
            self._ident = self._identity()
            self._migrate(migrate_to)
        except sqlite3.Error as exc:
            raise self.db_error(exc) from None
        except UnicodeDecodeError:  # SQLite's own message quotes a damaged schema that is not UTF-8
            raise self._damaged("its schema cannot be read") from None
        except OSError as exc:
            raise StoreError("bad_db", "{path}: cannot create the games database ({strerror})", path=self.path, strerror=exc.strerror) from None

    def _identity(self) -> tuple[str, int, int]:
        """The file, for the folds kept: its path and inode (a file replaced at the path is another)."""
        if str(self.path) == ":memory:":
            return (f":memory:{secrets.token_hex(8)}", 0, 0)
        info = os.stat(self.path)
        return (str(self.path), info.st_dev, info.st_ino)

    def db_error(self, exc: sqlite3.Error | OSError) -> StoreError:
        """The StoreError for an error SQLite (or the file system) raised: what is wrong, in one line."""
        return db_error(self.path, exc, BUSY_TIMEOUT_MS)

    # --- transactions ---

    def _first_write(self) -> None:
        """Before the first write: the whole file read once per process (damage in any page is
        `bad_db`, the file untouched), then write-ahead logging, so that readers never wait."""
        if self._checked:
            return
        if str(self.path) != ":memory:":
            problems = first_write_check(self.db, self.path)
            if problems is not None:
                raise self._damaged("SQLite finds: {problems}", problems=problems)
        with suppress(sqlite3.OperationalError):  # another process holds it; the mode is kept in the file once set
            self.db.execute("PRAGMA journal_mode = WAL")
        self._checked = True

    @contextmanager
    def _write(self, quota: bool = True) -> Iterator[sqlite3.Connection]:
        """One write transaction; taken at once (IMMEDIATE), so two writers queue up, never interleave."""
        self._first_write()
        if quota:
            check_quota(self.db, self.path, self.limits)
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            with suppress(sqlite3.Error):  # the error to report is the one that stopped the write
                self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def _migrate(self, target: int) -> None:
        (version,) = self.db.execute("PRAGMA user_version").fetchone()
        if not 0 <= version <= PLAUSIBLE_VERSIONS:
            raise self._damaged("its schema version {version} is none that mjcalc writes", version=version)
        if version > SCHEMA_VERSION:
            raise StoreError("db_too_new", "{path}: the games database has schema version {version}; this mjcalc knows up to {schema_version} (upgrade mjcalc)",
                path=self.path, version=version, schema_version=SCHEMA_VERSION)
        if version >= target:
            return
        if version == 0:
            foreign = foreign_tables(self.db)
            if foreign:  # another program's SQLite file: never taken for an empty games database
                raise StoreError("bad_db", "{path}: not a games database: it is an SQLite database with other tables ({tables}) "
                                 "and no mjcalc schema; give another --db", path=self.path, tables=shown(", ".join(foreign), 80))
        if version > 0:  # a migration counts what is there: first make sure that all of it can be read
            problems = [row[0] for row in self.db.execute("PRAGMA integrity_check(3)").fetchall()]
            if problems != ["ok"]:
                raise self._damaged("SQLite finds: {problems}", problems=shown("; ".join(map(str, problems)), 200))
        with self._write(quota=False) as db:
            (version,) = db.execute("PRAGMA user_version").fetchone()  # another process may have migrated it
            for step in MIGRATIONS[version:target]:
                step(db)
            db.execute(f"PRAGMA user_version = {max(version, target)}")

    # --- games ---

    @guarded
    def new_game(self, header: Mapping[str, Any]) -> GameInfo:
        """Check a header (variant, players, dealer, chips) and store a game with no hands."""
        from ..game import check_header

        header = {k: v for k, v in header.items() if v is not None}
        check_text(header, "a new game")
        check_header(header, [], "game")
        created = now_iso()
        token = make_token()
        with self._write() as db:
            cur = db.execute(
                "INSERT INTO games (created, header, token) VALUES (?, ?, ?)",
                (created, json.dumps(header, ensure_ascii=False), token),
            )
            game_id = int(cur.lastrowid or 0)
        return GameInfo(game_id, created, dict(header), token)

    # --- writes ---

    def _begin(self, game_id: int | str | None, expect: int | None) -> tuple[GameInfo, Folded]:
        """Inside a write: the game folded, after checking the version the change was made against,
        and that the game has room for one more event."""
        info = self.game(game_id, count_hands=False)
        fold = self._fold(info)
        if expect is not None and expect != fold.version:
            raise StoreError("stale_version", "game {id} has changed: it is at version {count}, "
                             "the change was made against version {expect}; look again and redo it",
                id=info.id, count=fold.version, expect=expect)
        room_for(info.id, self.limits, len(fold.stack), fold.version, 0)
        return info, fold

    def _append(self, db: sqlite3.Connection, info: GameInfo, fold: Folded, kind: str, body: Mapping[str, Any]) -> Event:
        seq = fold.version + 1
        text = json.dumps(body, ensure_ascii=False)
        at = now_iso()
        db.execute("INSERT INTO events (game, seq, kind, body, at) VALUES (?, ?, ?, ?, ?)", (info.id, seq, kind, text, at))
        db.execute("UPDATE games SET events = ? WHERE id = ?", (seq, info.id))
        return Event(seq, kind, dict(body), at, text)

    def _check_hand(self, fold: Folded, at: int, hand: Mapping[str, Any]) -> tuple[dict[str, Any], State, HandRow]:
        """The hand, as it will be stored, checked against the game after its first `at` hands in play:
        a hand that is not a win, or bad input, raises its error; else its standings and row."""
        from ..game import RawHand, step

        if not isinstance(hand, Mapping):
            raise StoreError("bad_record", "a hand must be a mapping of fields, not {name}", name=type(hand).__name__)
        check_text(hand, f"hand {at + 1}")
        text = json.dumps(dict(hand), ensure_ascii=False)
        check_record(text, self.limits, f"hand {at + 1}")
        record: dict[str, Any] = json.loads(text)
        state, row = step(fold.game, fold.states[at], RawHand(at + 1, record))
        if row.error is not None:
            raise row.error
        return record, state, row

    def _written(self, info: GameInfo, before: Folded, event: Event, no: int | None, hand: dict[str, Any] | None) -> Change:
        """The Change of a write: the game folded after `event`; the hands that were settled before
        it and are error rows after it are `broken`."""
        try:
            after = before.then([event], (event.text, event.at))
        except BadEvents as exc:
            raise self.bad_events(info.id, exc) from None
        self.folds.put(self.fold_key(info.id), after)
        failed = {hid: row.error is not None for (hid, _), row in zip(before.stack, before.rows, strict=True)}
        broken = tuple(i + 1 for i, ((hid, _), row) in enumerate(zip(after.stack, after.rows, strict=True))
                       if row.error is not None and not failed.get(hid, False))
        return Change(after.report(), after.version, no, hand, broken, after)

    def _hand_at(self, info: GameInfo, stack: Hands | tuple[tuple[int, dict[str, Any]], ...], no: int) -> int:
        if isinstance(no, bool) or not isinstance(no, int) or not 1 <= no <= len(stack):
            hands = N_("1 to {count}", count=len(stack)) if stack else N_("none yet")
            raise StoreError("unknown_hand", "game {id} has no hand {no}: its hands are {hands}", id=info.id, no=shown(no, 20), hands=hands)
        return no - 1

    @guarded
    def add(self, game_id: int | str | None, hand: Mapping[str, Any], *, expect: int | None = None) -> Change:
        """Check one hand against the game as it stands and store it; a hand that is
        not a win, or bad input, raises its error and nothing is written."""
        with self._write() as db:
            info, fold = self._begin(game_id, expect)
            room_for(info.id, self.limits, len(fold.stack), fold.version, 1)
            record, _, _ = self._check_hand(fold, len(fold.stack), hand)
            event = self._append(db, info, fold, "hand", record)
        return self._written(info, fold, event, len(fold.stack) + 1, record)

    @guarded
    def edit(self, game_id: int | str | None, no: int, hand: Mapping[str, Any], *, expect: int | None = None) -> Change:
        """Replace hand `no`: the new hand is checked against the game before it (refused, nothing
        written, if it is not a win or bad input); a later hand it makes impossible becomes an error row."""
        with self._write() as db:
            info, fold = self._begin(game_id, expect)
            at = self._hand_at(info, fold.stack, no)
            record, _, _ = self._check_hand(fold, at, hand)
            event = self._append(db, info, fold, "edit", {"edits": fold.stack[at][0], "no": no, "hand": record})
        return self._written(info, fold, event, no, record)

    @guarded
    def delete(self, game_id: int | str | None, no: int, *, expect: int | None = None) -> Change:
        """Remove hand `no` (it stays in the history); the later hands are settled again without it."""
        with self._write() as db:
            info, fold = self._begin(game_id, expect)
            at = self._hand_at(info, fold.stack, no)
            hid, removed = fold.stack[at]
            event = self._append(db, info, fold, "delete", {"deletes": hid, "no": no})
        return self._written(info, fold, event, no, removed)

    @guarded
    def take_back(self, game_id: int | str | None = None, *, expect: int | None = None) -> Change:
        """Take back the last hand in play (kept in the history; `redo` puts it back)."""
        with self._write() as db:
            info, fold = self._begin(game_id, expect)
            if not fold.stack:
                raise StoreError("nothing_to_undo", "game {id} has no hand to take back", id=info.id)
            hid, undone = fold.stack[-1]
            event = self._append(db, info, fold, "undo", {"undoes": hid})
        return self._written(info, fold, event, len(fold.stack), undone)

    @guarded
    def redo(self, game_id: int | str | None = None, *, expect: int | None = None) -> Change:
        """Put back the last hand undone, if no hand was added, changed or removed since
        (`nothing_to_redo` when there is none): the game is then exactly as it was before that undo."""
        with self._write() as db:
            info, fold = self._begin(game_id, expect)
            if not fold.undone:
                raise StoreError("nothing_to_redo", "game {id} has no undo to take back "
                                 "(a hand added, changed or removed since an undo ends what redo can put back)",
                    id=info.id)
            room_for(info.id, self.limits, len(fold.stack), fold.version, 1)
            hid, hand = fold.undone[-1]
            event = self._append(db, info, fold, "redo", {"redoes": hid})
        return self._written(info, fold, event, len(fold.stack) + 1, hand)


__all__ = ["SCHEMA_VERSION", "Change", "GameInfo", "Store", "StoreError", "StoreLimits", "default_db_path"]
