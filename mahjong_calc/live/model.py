"""What the store of live games hands out and takes in, without SQLite: its error, a game's
header row (`GameInfo`), what a write did (`Change`), where the database is by default, the
access tokens, and the check that a text can be stored (no lone surrogate)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.batch_record import is_text
from ..core.errors import InputError

if TYPE_CHECKING:
    from ..game import Report
    from .fold import Folded


class StoreError(InputError):
    """The store cannot be used as asked: an unknown game, nothing to undo, an unreadable file (exit 2)."""


def default_db_path() -> Path:
    """`$MJCALC_DB`, else `$XDG_DATA_HOME/mjcalc/games.sqlite3` (default ~/.local/share)."""
    env = os.environ.get("MJCALC_DB")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "mjcalc" / "games.sqlite3"


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def make_token() -> str:
    return secrets.token_urlsafe(12)


def valid_token(token: object) -> bool:
    """Whether a stored token is one `make_token` could have made (16 or more URL-safe characters):
    a row whose token is NULL, empty or otherwise not one opens to no token at all."""
    return isinstance(token, str) and len(token) >= 16 and token.isascii() and all(c.isalnum() or c in "-_" for c in token)


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
class Change:
    """What a write did: the game settled after it, its new version, the hand it was about
    (its number, and the hand undone, redone or deleted), and the later hands it made error rows."""

    report: Report
    version: int
    no: int | None = None
    hand: dict[str, Any] | None = None
    broken: tuple[int, ...] = ()
    fold: Folded | None = None  # the game folded after the write: its state's JSON is made once (`Folded.state_json`)


def lone_surrogate(value: object, where: str = "") -> str | None:
    """Where in `value` (`players[2]`, `id`, `exposed.王[0]`) a text holds a lone surrogate
    (`"\\udcff"` in JSON), which is no Unicode text and cannot be stored; None when none does."""
    if isinstance(value, str):
        return None if value.isascii() or is_text(value) else (where or "the value")
    if isinstance(value, Mapping):
        for key, item in value.items():
            name = f"{where}.{key}" if where else str(key)
            if isinstance(key, str) and not is_text(key):
                return f"{where + '.' if where else ''}{ascii(key)[1:-1]} (the name)"
            found = lone_surrogate(item, name)
            if found is not None:
                return found
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            found = lone_surrogate(item, f"{where}[{i}]")
            if found is not None:
                return found
    return None


def check_text(value: object, what: str) -> None:
    """`bad_encoding`, naming the field, when a text in `value` is not Unicode (a lone surrogate)."""
    found = lone_surrogate(value)
    if found is not None:
        raise StoreError("bad_encoding", "{what}: {text}: not valid Unicode text (a lone surrogate such as \\udcff); write the name or text again",
                         what=what, text=ascii(found)[1:-1] if not is_text(found) else found)


def parse_game_number(game_id: object) -> int | None:
    """A game's number from how it is named (an int, or decimal digits, as a URL or the CLI gives
    it), or None."""
    if isinstance(game_id, int) and not isinstance(game_id, bool):
        return game_id
    if isinstance(game_id, str) and game_id.isascii() and game_id.isdigit() and len(game_id) < 19:
        return int(game_id)
    return None


def game_number(game_id: int | str) -> int:
    """A game's number as the CLI names it (spaces around it allowed), or unknown_game."""
    number = parse_game_number(game_id.strip() if isinstance(game_id, str) and len(game_id) < 19 else game_id)
    if number is None:
        raise StoreError("unknown_game", "a game is named by its number (see `mjcalc game list`), not {game_id!r:.40}", game_id=game_id)
    return number
