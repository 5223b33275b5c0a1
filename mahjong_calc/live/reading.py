"""The games database as the store reads it (live/store.py's Store writes it): its games, each
game's events, the hands in play, its history, and the game folded (live/fold.py), kept between
requests and brought up to date by the events written since. Every SQLite error is `bad_db` or
`db_busy` (guard.py), every read one transaction."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from ..core.errors import MjcalcError
from ..core.words import N_, Text
from .fold import Folded, Folds, folded
from .guard import guarded, read_at_once
from .limits import StoreLimits
from .migrations import KINDS
from .model import GameInfo, StoreError, game_number, valid_token
from .replay import BadEvents, Event, Hands, history, replay

if TYPE_CHECKING:
    from ..game import GameFile, Report


class Reading:
    """What the store reads; the Store (live/store.py) opens the file and writes."""

    path: Path
    db: sqlite3.Connection
    folds: Folds
    limits: StoreLimits
    _ident: tuple[str, int, int]

    def _damaged(self, what: str | Text, *, not_ours: bool = False, **params: object) -> StoreError:
        """bad_db: the file is damaged, or (`not_ours`) not a games database at all."""
        text = what if isinstance(what, Text) else N_(what, **params)
        if not_ours:
            return StoreError("bad_db", "{path}: not a games database: {what}", path=self.path, what=text)
        return StoreError("bad_db", "{path}: the games database is damaged: {what}", path=self.path, what=text)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    @guarded
    def version(self) -> int:
        (version,) = self.db.execute("PRAGMA user_version").fetchone()
        return int(version)

    # --- games ---

    @guarded
    @read_at_once
    def games(self) -> list[GameInfo]:
        """Every game, the most recent first."""
        rows = self.db.execute("SELECT id, created, header, token FROM games ORDER BY id DESC").fetchall()
        return [self._info(row) for row in rows]

    @guarded
    def tokens(self) -> dict[int, str]:
        """Each game's access token, by game number (cheap: no hands are read); a game without a valid token is left out."""
        return {int(i): t for i, t in self.db.execute("SELECT id, token FROM games").fetchall() if valid_token(t)}

    @guarded
    def last_game_id(self) -> int:
        """The number of the most recent game (0: none yet)."""
        (last,) = self.db.execute("SELECT coalesce(max(id), 0) FROM games").fetchone()
        return int(last)

    @guarded
    def games_after(self, last: int) -> list[GameInfo]:
        """The games begun after game `last`, oldest first (cheap: their hands are not read)."""
        rows = self.db.execute("SELECT id, created, header, token FROM games WHERE id > ? ORDER BY id", (last,)).fetchall()
        return [self._info(row, count_hands=False) for row in rows]

    def _info(self, row: tuple[Any, ...], count_hands: bool = True) -> GameInfo:
        game_id, created, text, token = row
        try:
            header = json.loads(text)
        except (ValueError, TypeError, RecursionError):
            raise self._damaged("game {game_id}'s header is not valid JSON", game_id=game_id) from None
        if not isinstance(header, dict):
            raise self._damaged("game {game_id}'s header is not a mapping", game_id=game_id)
        return GameInfo(game_id, created, header, token if valid_token(token) else None,
                        len(self._replay(game_id, self.events(game_id))[0]) if count_hands else 0)

    @guarded
    @read_at_once
    def game(self, game_id: int | str | None = None, count_hands: bool = True) -> GameInfo:
        """One game by id; None: the most recent game."""
        if game_id is None:
            row = self.db.execute("SELECT id, created, header, token FROM games ORDER BY id DESC LIMIT 1").fetchone()
            if row is None:
                raise StoreError("no_game", "{path}: no game yet; start one with `mjcalc game new`", path=self.path)
            return self._info(row, count_hands)
        number = game_number(game_id)
        row = self.db.execute("SELECT id, created, header, token FROM games WHERE id = ?", (number,)).fetchone()
        if row is None:
            raise StoreError("unknown_game", "no game {game_id!s:.40} in {path} (see `mjcalc game list`)", game_id=game_id, path=self.path)
        return self._info(row, count_hands)

    @guarded
    @read_at_once
    def events(self, game_id: int, after: int = 0) -> list[Event]:
        """Every event of a game after event `after`, in order; all of them, or `bad_db` (a game is
        never shown with events missing)."""
        rows = self.db.execute("SELECT seq, kind, body, at FROM events WHERE game = ? AND seq > ? ORDER BY seq", (game_id, after)).fetchall()
        count = self.db.execute("SELECT events FROM games WHERE id = ?", (game_id,)).fetchone()
        if count is None and not rows:
            return []
        seqs = [row[0] for row in rows]
        if count is None or seqs != list(range(after + 1, after + len(rows) + 1)) or count[0] != after + len(rows):
            recorded = "?" if count is None else count[0]
            raise self._damaged("game {game_id} has {recorded} events (hands and undos) recorded, but {count} can be read in order; the game is not shown",
                game_id=game_id, recorded=recorded, count=after + len(rows))
        return [self.event(game_id, *row) for row in rows]

    def event(self, game_id: int, seq: int, kind: str, body: str, at: str) -> Event:
        """One stored event, read: its body JSON, its kind one of KINDS (else `bad_db`)."""
        try:
            value = json.loads(body)
        except (ValueError, TypeError, RecursionError):
            raise self._damaged("game {game_id}, event {seq}: the hand is not valid JSON", game_id=game_id, seq=seq) from None
        if kind not in KINDS or not isinstance(value, dict):
            raise self._damaged("game {game_id}, event {seq}: not a hand, an undo, a redo, an edit or a delete", game_id=game_id, seq=seq)
        return Event(seq, kind, value, at, body)

    def bad_events(self, game_id: int, exc: BadEvents) -> StoreError:
        """bad_db: a game's events that make no game (an edit of a hand not in play, ...)."""
        return self._damaged("game {game_id}, {exc}", game_id=game_id, exc=exc)

    def _replay(self, game_id: int, events: list[Event]) -> tuple[Hands, Hands]:
        try:
            return replay(events)
        except BadEvents as exc:
            raise self.bad_events(game_id, exc) from None

    @guarded
    @read_at_once
    def hands(self, game_id: int) -> list[dict[str, Any]]:
        """The hands in play, as entered (or as last changed)."""
        return [hand for _, hand in self._replay(game_id, self.events(game_id))[0]]

    @guarded
    @read_at_once
    def history(self, game_id: int | str | None = None) -> list[dict[str, Any]]:
        """Every event of a game, for `game history`: what was entered, changed and removed, and when."""
        info = self.game(game_id, count_hands=False)
        events = self.events(info.id)
        self._replay(info.id, events)
        return history(events)

    @guarded
    def game_version(self, game_id: int) -> int:
        """The game's version: its count of events (0 for a game with none)."""
        row = self.db.execute("SELECT events FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError("unknown_game", "no game {game_id} in {path} (see `mjcalc game list`)", game_id=game_id, path=self.path)
        return int(row[0])

    @guarded
    def game_versions(self, games: tuple[int, ...]) -> dict[int, int]:
        """The versions of these games (one query for a server's event streams); an unknown game is left out."""
        out: dict[int, int] = {}
        for start in range(0, len(games), 500):
            part = games[start:start + 500]
            rows = self.db.execute(f"SELECT id, events FROM games WHERE id IN ({', '.join('?' * len(part))})", part).fetchall()
            out.update((int(g), int(v)) for g, v in rows)
        return out

    # --- the fold ---

    def game_file(self, info: GameInfo, hands: list[dict[str, Any]] | None = None) -> GameFile:
        from ..game import RawHand, check_header

        hands = self.hands(info.id) if hands is None else hands
        try:
            return check_header(info.header, [RawHand(i + 1, h) for i, h in enumerate(hands)], "game")
        except MjcalcError as err:  # every stored header was checked when its game began
            raise self._damaged("game {id}'s header: {detail}", id=info.id, detail=err) from None

    def fold_key(self, game_id: int) -> tuple[Any, ...]:
        """A fold's key: the file, the game, and the language its results are worded in (a result's
        texts are made when it is scored, in the language of that moment)."""
        from ..core.words import language

        return (*self._ident, game_id, language())

    def _fold(self, info: GameInfo) -> Folded:
        """The game folded at its version now (in a transaction): the fold kept, brought up to date by
        the events written since, if the game's last event is still the one it was made from."""
        key = self.fold_key(info.id)
        version = self.game_version(info.id)
        kept = self.folds.get(key)
        try:
            if kept is not None and kept.version <= version and self._still(info.id, kept):
                if kept.version == version:
                    return kept
                events = self.events(info.id, kept.version)
                fold = kept.then(events, (events[-1].text, events[-1].at) if events else kept.last)
            else:
                fold = folded(self.game_file(info, []), self.events(info.id))
        except BadEvents as exc:
            raise self.bad_events(info.id, exc) from None
        self.folds.put(key, fold)
        return fold

    def _still(self, game_id: int, kept: Folded) -> bool:
        if kept.last is None:
            return kept.version == 0
        row = self.db.execute("SELECT body, at FROM events WHERE game = ? AND seq = ?", (game_id, kept.version)).fetchone()
        return row is not None and (row[0], row[1]) == kept.last

    @guarded
    @read_at_once
    def folded(self, game_id: int | str | None = None) -> Folded:
        """The game folded, with its version (one read transaction)."""
        return self._fold(self.game(game_id, count_hands=False))

    @guarded
    @read_at_once
    def kept(self, game_id: int | str) -> Folded | None:
        """The game's fold this process keeps, if it is the game's version now (nothing is settled), or None."""
        number = game_number(game_id)
        fold = self.folds.get(self.fold_key(number))
        row = self.db.execute("SELECT events FROM games WHERE id = ?", (number,)).fetchone()
        return fold if fold is not None and row is not None and row[0] == fold.version and self._still(number, fold) else None

    def snapshot(self, game_id: int | str | None = None) -> tuple[Report, int]:
        """The game settled and its version, read together (one read transaction)."""
        fold = self.folded(game_id)
        return fold.report(), fold.version

    def report(self, game_id: int | str | None = None) -> Report:
        """The game settled: exactly what `mjcalc game settle` gives for its export."""
        return self.folded(game_id).report()
