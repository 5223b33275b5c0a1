"""The SQLite store of live games: a header per game, and an append-only list of events.

Events are `hand` (one hand as entered, a game-record hand: winner, discarder, hand,
melds, ...) and `undo` (takes back the last hand still in play; the hand stays in the
history). Nothing derived is stored: the hands in play are the fold over the events,
and the standings the fold of `settle_game` over those hands.

Writes are one transaction each (`BEGIN IMMEDIATE`), and a hand is checked inside
the transaction against the hands already stored, so two processes adding to one
game at once are serialised: neither hand is lost, none is stored twice, and each
is checked against the game as it really stands. `(game, seq)` is the primary key.
The schema carries its version in `PRAGMA user_version` and migrates forward.
"""

from __future__ import annotations

import functools
import json
import os
import secrets
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, Self, TypeVar

from ..core.errors import InputError, MjcalcError, shown

if TYPE_CHECKING:
    from ..game import GameFile, Report

_P = ParamSpec("_P")
_R = TypeVar("_R")
BUSY_TIMEOUT_MS = 30_000  # how long a writer waits for another one before giving up


class StoreError(InputError):
    """The store cannot be used as asked: an unknown game, nothing to undo, an unreadable file (exit 2)."""


def default_db_path() -> Path:
    """`$MJCALC_DB`, else `$XDG_DATA_HOME/mjcalc/games.sqlite3` (default ~/.local/share)."""
    env = os.environ.get("MJCALC_DB")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "mjcalc" / "games.sqlite3"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _token() -> str:
    return secrets.token_urlsafe(12)


def valid_token(token: object) -> bool:
    """Whether a stored token is one `_token` could have made (16 or more URL-safe characters):
    a row whose token is NULL, empty or otherwise not one opens to no token at all."""
    return isinstance(token, str) and len(token) >= 16 and token.isascii() and all(c.isalnum() or c in "-_" for c in token)


# --- schema, version by version -------------------------------------------------------


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
        db.execute("UPDATE games SET token = ? WHERE id = ?", (_token(), game_id))


def _v3(db: sqlite3.Connection) -> None:
    """Each game's count of events, kept with every write: a damaged file that loses rows is told apart."""
    db.execute("ALTER TABLE games ADD COLUMN events INTEGER NOT NULL DEFAULT 0")
    db.execute("UPDATE games SET events = (SELECT count(*) FROM events WHERE events.game = games.id)")


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_v1, _v2, _v3)  # MIGRATIONS[n] takes version n to n + 1
SCHEMA_VERSION = len(MIGRATIONS)
PLAUSIBLE_VERSIONS = 1000  # a version beyond this is a damaged header, not a newer mjcalc


@dataclass(frozen=True)
class GameInfo:
    """One stored game: its id, when it began, its header, its access token, hands in play."""

    id: int
    created: str
    header: dict[str, Any]
    token: str | None  # None: the stored token is missing or not valid (no token opens the game)
    hands: int = 0

    def to_dict(self) -> dict[str, Any]:
        """`mjcalc game list --json`: one game (the token is left out; `serve` hands it out)."""
        return {
            "id": self.id,
            "created": self.created,
            "variant": self.header.get("variant"),
            "players": self.header.get("players"),
            "dealer": self.header.get("dealer"),
            "hands": self.hands,
        }


@dataclass(frozen=True)
class Event:
    """One stored event of a game: its sequence number, kind (a hand, an undo), body and time."""

    seq: int
    kind: str
    body: dict[str, Any]
    at: str


def live_hands(events: list[Event]) -> list[tuple[int, dict[str, Any]]]:
    """The hands still in play, (seq, hand), after applying every undo in order."""
    stack: list[tuple[int, dict[str, Any]]] = []
    for ev in events:
        if ev.kind == "hand":
            stack.append((ev.seq, ev.body))
        elif ev.kind == "undo" and stack:
            stack.pop()
    return stack


def _guarded(method: Callable[_P, _R]) -> Callable[_P, _R]:
    """A store method whose SQLite and file errors become `bad_db` or `db_busy` (exit 2), naming the problem."""

    @functools.wraps(method)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return method(*args, **kwargs)
        except (sqlite3.Error, OSError) as exc:
            store = args[0]
            assert isinstance(store, Store)
            raise store.db_error(exc) from None
        except UnicodeDecodeError:  # a TEXT value that is not UTF-8: sqlite3 cannot even hand it over
            store = args[0]
            assert isinstance(store, Store)
            raise store._damaged("a text in it is not UTF-8") from None

    return run


class Store:
    """A games database; opening it creates it or migrates it forward.

    A database that cannot be used is `bad_db` (a damaged or truncated file, a missing
    table, a read-only file, a header or hand that is not JSON, events missing), and a
    lock another process holds longer than BUSY_TIMEOUT_MS is `db_busy`: exit 2 each.
    """

    def __init__(self, path: str | Path | None = None, *, migrate_to: int = SCHEMA_VERSION) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        try:
            if str(self.path) != ":memory:":
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(str(self.path), isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
            self.db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self.db.execute("PRAGMA foreign_keys = ON")
            self._migrate(migrate_to)
        except sqlite3.Error as exc:
            raise self.db_error(exc) from None
        except UnicodeDecodeError:  # SQLite's own message quotes a damaged schema that is not UTF-8
            raise self._damaged("its schema cannot be read") from None
        except OSError as exc:
            raise StoreError("bad_db", f"{self.path}: cannot create the games database ({exc.strerror})") from None

    def db_error(self, exc: sqlite3.Error | OSError) -> StoreError:
        """The StoreError for an error SQLite (or the file system) raised: what is wrong, in one line."""
        text = str(exc)
        lower = text.lower()
        if "locked" in lower or "busy" in lower:
            return StoreError("db_busy", f"{self.path}: the games database is busy: another process held its lock for more than "
                              f"{BUSY_TIMEOUT_MS / 1000:g} s; try again")
        if "readonly" in lower or "read-only" in lower:
            return StoreError("bad_db", f"{self.path}: cannot write the games database: it is read-only ({text})")
        if lower.startswith("no such table"):
            return StoreError("bad_db", f"{self.path}: the games database has no table {text.rpartition(':')[2].strip()!r}"
                              " (damaged, or not an mjcalc database)")
        for side in ("-shm", "-wal", "-journal"):
            if Path(f"{self.path}{side}").is_dir():
                return StoreError("bad_db", f"{self.path}{side} is a directory: SQLite needs that name for a file of its own ({text})")
        if "malformed" in lower or "not a database" in lower or "corrupt" in lower:
            return StoreError("bad_db", f"{self.path}: the games database is damaged ({text})")
        return StoreError("bad_db", f"{self.path}: cannot use the games database ({text})")

    def _damaged(self, what: str) -> StoreError:
        return StoreError("bad_db", f"{self.path}: the games database is damaged: {what}")

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- transactions ---

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; taken at once (IMMEDIATE), so two writers queue up, never interleave."""
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
            raise self._damaged(f"its schema version {version} is none that mjcalc writes")
        if version > SCHEMA_VERSION:
            raise StoreError("db_too_new", f"{self.path}: the games database has schema version {version}; "
                             f"this mjcalc knows up to {SCHEMA_VERSION} (upgrade mjcalc)")
        if version >= target:
            return
        if version > 0:  # a migration counts what is there: first make sure that all of it can be read
            problems = [row[0] for row in self.db.execute("PRAGMA integrity_check(3)").fetchall()]
            if problems != ["ok"]:
                raise self._damaged(shown("; ".join(map(str, problems)), 200))
        with self._write() as db:
            (version,) = db.execute("PRAGMA user_version").fetchone()  # another process may have migrated it
            for step in MIGRATIONS[version:target]:
                step(db)
            db.execute(f"PRAGMA user_version = {max(version, target)}")
        with suppress(sqlite3.OperationalError):  # another process holds it; the mode is kept in the file once set
            self.db.execute("PRAGMA journal_mode = WAL")  # readers do not wait for a writer

    @property
    @_guarded
    def version(self) -> int:
        (version,) = self.db.execute("PRAGMA user_version").fetchone()
        return int(version)

    # --- games ---

    @_guarded
    def new_game(self, header: Mapping[str, Any]) -> GameInfo:
        """Check a header (variant, players, dealer, chips) and store a game with no hands."""
        from ..game import check_header

        header = {k: v for k, v in header.items() if v is not None}
        check_header(header, [], "game")
        created = _now()
        token = _token()
        with self._write() as db:
            cur = db.execute(
                "INSERT INTO games (created, header, token) VALUES (?, ?, ?)",
                (created, json.dumps(header, ensure_ascii=False), token),
            )
            game_id = int(cur.lastrowid or 0)
        return GameInfo(game_id, created, dict(header), token)

    @_guarded
    def games(self) -> list[GameInfo]:
        """Every game, the most recent first."""
        rows = self.db.execute("SELECT id, created, header, token FROM games ORDER BY id DESC").fetchall()
        return [self._info(row) for row in rows]

    @_guarded
    def tokens(self) -> dict[int, str]:
        """Each game's access token, by game number (cheap: no hands are read); a game without a valid token is left out."""
        return {int(i): t for i, t in self.db.execute("SELECT id, token FROM games").fetchall() if valid_token(t)}

    def _info(self, row: tuple[Any, ...]) -> GameInfo:
        game_id, created, text, token = row
        try:
            header = json.loads(text)
        except (ValueError, TypeError, RecursionError):
            raise self._damaged(f"game {game_id}'s header is not valid JSON") from None
        if not isinstance(header, dict):
            raise self._damaged(f"game {game_id}'s header is not a mapping")
        return GameInfo(game_id, created, header, token if valid_token(token) else None, len(live_hands(self.events(game_id))))

    @_guarded
    def game(self, game_id: int | str | None = None) -> GameInfo:
        """One game by id; None: the most recent game."""
        if game_id is None:
            row = self.db.execute("SELECT id, created, header, token FROM games ORDER BY id DESC LIMIT 1").fetchone()
            if row is None:
                raise StoreError("no_game", f"{self.path}: no game yet; start one with `mjcalc game new`")
            return self._info(row)
        number = _game_number(game_id)
        row = self.db.execute("SELECT id, created, header, token FROM games WHERE id = ?", (number,)).fetchone()
        if row is None:
            raise StoreError("unknown_game", f"no game {game_id!s:.40} in {self.path} (see `mjcalc game list`)")
        return self._info(row)

    @_guarded
    def events(self, game_id: int) -> list[Event]:
        """Every event of a game, in order; all of them, or `bad_db` (a game is never shown with events missing)."""
        rows = self.db.execute("SELECT seq, kind, body, at FROM events WHERE game = ? ORDER BY seq", (game_id,)).fetchall()
        count = self.db.execute("SELECT events FROM games WHERE id = ?", (game_id,)).fetchone()
        if count is None and not rows:
            return []
        seqs = [row[0] for row in rows]
        if count is None or seqs != list(range(1, len(rows) + 1)) or count[0] != len(rows):
            recorded = "?" if count is None else count[0]
            raise self._damaged(f"game {game_id} has {recorded} events (hands and undos) recorded, "
                                f"but {len(rows)} can be read in order; the game is not shown")
        out = []
        for seq, kind, body, at in rows:
            try:
                value = json.loads(body)
            except (ValueError, TypeError, RecursionError):
                raise self._damaged(f"game {game_id}, event {seq}: the hand is not valid JSON") from None
            if kind not in ("hand", "undo") or not isinstance(value, dict):
                raise self._damaged(f"game {game_id}, event {seq}: not a hand or an undo")
            out.append(Event(seq, kind, value, at))
        return out

    @_guarded
    def hands(self, game_id: int) -> list[dict[str, Any]]:
        """The hands in play, as entered."""
        return [hand for _, hand in live_hands(self.events(game_id))]

    # --- the fold ---

    def game_file(self, info: GameInfo, hands: list[dict[str, Any]] | None = None) -> GameFile:
        from ..game import RawHand, check_header

        hands = self.hands(info.id) if hands is None else hands
        try:
            return check_header(info.header, [RawHand(i + 1, h) for i, h in enumerate(hands)], "game")
        except MjcalcError as err:  # every stored header was checked when its game began
            raise self._damaged(f"game {info.id}'s header: {err.message}") from None

    @_guarded
    def report(self, game_id: int | str | None = None) -> Report:
        """The game settled: exactly what `mjcalc game settle` gives for its export."""
        from ..game import settle_game

        return settle_game(self.game_file(self.game(game_id)))

    # --- writes ---

    @_guarded
    def add_hand(self, game_id: int | str | None, hand: Mapping[str, Any]) -> Report:
        """Check one hand against the game as it stands and store it; a hand that is
        not a win, or bad input, raises its error and nothing is written."""
        from ..game import RawHand, settle_game, start, step

        if not isinstance(hand, Mapping):
            raise StoreError("bad_record", f"a hand must be a mapping of fields, not {type(hand).__name__}")
        record = dict(hand)
        body = json.dumps(record, ensure_ascii=False)
        with self._write() as db:
            info = self.game(game_id)
            events = self.events(info.id)
            hands = [h for _, h in live_hands(events)]
            game = self.game_file(info, hands)
            state = start(game)
            for raw in game.hands:
                state, _ = step(game, state, raw)
            _, row = step(game, state, RawHand(len(hands) + 1, json.loads(body)))
            if row.error is not None:
                raise row.error
            seq = (events[-1].seq if events else 0) + 1
            db.execute("INSERT INTO events (game, seq, kind, body, at) VALUES (?, ?, 'hand', ?, ?)", (info.id, seq, body, _now()))
            db.execute("UPDATE games SET events = ? WHERE id = ?", (seq, info.id))
        return settle_game(self.game_file(info, [*hands, record]))

    @_guarded
    def undo(self, game_id: int | str | None = None) -> tuple[dict[str, Any], Report]:
        """Take back the last hand in play (kept in the history); returns it and the new standings."""
        from ..game import settle_game

        with self._write() as db:
            info = self.game(game_id)
            events = self.events(info.id)
            stack = live_hands(events)
            if not stack:
                raise StoreError("nothing_to_undo", f"game {info.id} has no hand to take back")
            seq, undone = stack.pop()
            db.execute(
                "INSERT INTO events (game, seq, kind, body, at) VALUES (?, ?, 'undo', ?, ?)",
                (info.id, events[-1].seq + 1, json.dumps({"undoes": seq}), _now()),
            )
            db.execute("UPDATE games SET events = ? WHERE id = ?", (events[-1].seq + 1, info.id))
        return undone, settle_game(self.game_file(info, [h for _, h in stack]))


def _game_number(game_id: int | str) -> int:
    if isinstance(game_id, int) and not isinstance(game_id, bool):
        return game_id
    if isinstance(game_id, str) and game_id.strip().isascii() and game_id.strip().isdigit() and len(game_id) < 19:
        return int(game_id)
    raise StoreError("unknown_game", f"a game is named by its number (see `mjcalc game list`), not {game_id!r:.40}")


def export_yaml(info: GameInfo, hands: list[dict[str, Any]]) -> str:
    """The game in the record format `mjcalc game settle FILE` reads."""
    import yaml

    doc = {**info.header, "hands": hands}
    head = f"# mjcalc game {info.id}, begun {info.created}; settle it with: mjcalc game settle FILE\n"
    return head + yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, default_flow_style=None, width=1000)


__all__ = ["SCHEMA_VERSION", "GameInfo", "MjcalcError", "Store", "StoreError", "default_db_path", "export_yaml", "live_hands"]
