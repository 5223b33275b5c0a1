"""The page's JSON API without a server: what the Web Worker of a static site (`mjcalc site build`)
answers, running this package on Pyodide.

`answer(method, path, body, version)` takes the request the page would send to `mjcalc serve`
and gives `(status, etag, body)` with the same JSON, from the same table of routes the server
adapts (web/table.py): for games the live store (`live/store.Store`, the same events and the
same fold) on a SQLite file that the worker keeps in the browser's IndexedDB. What only a
server can do (the event stream, join links, the season) is `not_found` here; a game moves to
a server as a file: `export` here, `mjcalc game import` there.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ..core.errors import MjcalcError
from ..core.words import LANGUAGES, N_, speaking
from ..present.errors import inert
from . import api, table
from .api import ApiError

if TYPE_CHECKING:
    from ..live.fold import Folds
    from ..live.store import Store

Reply = tuple[int, str | None, str]  # status, ETag (the game's version) or None, body

DB = "/data/games.db"  # in the worker's file system, kept in IndexedDB
_FOLDS: list[Folds] = []  # the games folded, kept between requests of this worker


def _store() -> Store:
    from ..live.fold import Folds
    from ..live.store import Store

    if not _FOLDS:
        _FOLDS.append(Folds())
    return Store(DB, folds=_FOLDS[0])


def messages() -> str:
    """`GET /api/messages`: every error code's message, `{code: {"zh", "en"}}`."""
    return table.messages(table.Call()).text()


def export(game: str, fmt: str = "yaml") -> str:
    """The game as `mjcalc game export --format yaml|csv` prints it: what `mjcalc game settle` reads."""
    return table.export(table.Call(params={"game": game}, query={"format": fmt}, store=_store)).text()


def answer(method: str, path: str, body_text: str | None = None, version: int | None = None,
           query: dict[str, str] | None = None) -> Reply:
    """One request of the page, answered from the API's table (web/table.py) as `mjcalc serve` answers it."""
    try:
        body = None if body_text is None else json.loads(body_text)
    except (ValueError, RecursionError):
        return 400, None, api.error_body("bad_json", N_("the body must be one JSON value (UTF-8)"))
    try:
        try:
            row, params = table.find(method.upper(), path, "site")
        except ApiError as err:
            if err.code != "not_found":
                raise
            raise ApiError("not_found", "{route}: not in a page without a server", route=f"{method.upper()} {path[:200]}") from None
        given = table.take_version(body)
        call = table.Call(body, version if version is not None else given, params, query or {}, _store)
        reply = row.handler(call)
        return reply.status, reply.etag, inert(reply.text()) if reply.media == table.JSON else reply.text()
    except MjcalcError as err:
        status, text = api.error_answer(err)
        return status, None, text
    except Exception as exc:  # the page gets the server's shape of an internal error, never a traceback
        return 500, None, api.error_body("internal_error", N_("internal error ({kind}); please report this request",
                                                               kind=type(exc).__name__))


def handle(request: str) -> str:
    """The worker's door: a request as JSON `{method, path, body, version, query, lang}` → `[status, etag, body]`;
    its messages in `lang` (the page's language, `zh` or `en`), as `Accept-Language` chooses them on a server."""
    given = json.loads(request)
    lang = given.get("lang")
    with speaking(lang if lang in LANGUAGES else None):
        status, etag, body = answer(given["method"], given["path"], given.get("body"), given.get("version"), given.get("query"))
    return json.dumps([status, etag, body], ensure_ascii=False)


def engine(kind: str, record: str) -> str:
    """`window.mjcalc`'s door: a batch record (JSON) → what `mjcalc score|waits|advise --json` prints for it."""
    from ..present import answers

    try:
        given = json.loads(record)
    except (ValueError, RecursionError):
        return api.error_body("bad_json", N_("the record must be one JSON value"))
    run = {"score": answers.score_record, "waits": answers.waits_record, "advise": answers.advise_record}.get(kind)
    if run is None:
        return api.error_body("not_found", N_("no engine call {name!r} (score, waits, advise)", name=kind[:20]))
    return run(given)
