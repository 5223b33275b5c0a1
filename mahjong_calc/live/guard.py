"""The store's SQLite errors as one-line `StoreError`s (`bad_db`, `db_busy`), and its reads in
one transaction each, so that several queries see one state of the file."""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import ParamSpec, TypeVar

from .model import StoreError

_P = ParamSpec("_P")
_R = TypeVar("_R")


def db_error(path: Path, exc: sqlite3.Error | OSError, busy_ms: int) -> StoreError:
    """The StoreError for an error SQLite (or the file system) raised: what is wrong, in one line."""
    text = str(exc)
    lower = text.lower()
    if "locked" in lower or "busy" in lower:
        return StoreError("db_busy", "{path}: the games database is busy: another process held its lock for more than {value:g} s; try again",
            path=path, value=busy_ms / 1000)
    if "readonly" in lower or "read-only" in lower:
        return StoreError("bad_db", "{path}: cannot write the games database: it is read-only ({text})", path=path, text=text)
    if lower.startswith("no such table"):
        return StoreError("bad_db", "{path}: the games database has no table {value!r} (damaged, or not an mjcalc database)",
            path=path, value=text.rpartition(':')[2].strip())
    for side in ("-shm", "-wal", "-journal"):
        if Path(f"{path}{side}").is_dir():
            return StoreError("bad_db", "{path}{side} is a directory: SQLite needs that name for a file of its own ({text})",
                path=path, side=side, text=text)
    if "malformed" in lower or "not a database" in lower or "corrupt" in lower:
        return StoreError("bad_db", "{path}: the games database is damaged ({text})", path=path, text=text)
    return StoreError("bad_db", "{path}: cannot use the games database ({text})", path=path, text=text)


def guarded(method: Callable[_P, _R]) -> Callable[_P, _R]:
    """A store method whose SQLite and file errors become `bad_db` or `db_busy` (exit 2), naming the problem."""

    @functools.wraps(method)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return method(*args, **kwargs)
        except (sqlite3.Error, OSError) as exc:
            raise args[0].db_error(exc) from None  # type: ignore[attr-defined]
        except UnicodeDecodeError:  # a TEXT value that is not UTF-8: sqlite3 cannot even hand it over
            raise args[0]._damaged("a text in it is not UTF-8") from None  # type: ignore[attr-defined]

    return run


def read_at_once(method: Callable[_P, _R]) -> Callable[_P, _R]:
    """A store method that reads in one transaction (unless inside one already): its several
    queries see one state of the file, never half of a write another connection commits."""

    @functools.wraps(method)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        db: sqlite3.Connection = args[0].db  # type: ignore[attr-defined]
        if db.in_transaction:
            return method(*args, **kwargs)
        db.execute("BEGIN")
        try:
            return method(*args, **kwargs)
        finally:
            with suppress(sqlite3.Error):
                db.execute("COMMIT")

    return run
