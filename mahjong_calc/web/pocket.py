"""The page's JSON API without a server: what the Web Worker of a static site (`mjcalc site build`)
answers, running this package on Pyodide.

`answer(method, path, body, version)` takes the request the page would send to `mjcalc serve`
and gives `(status, etag, body)` with the same JSON: the answers of `web/api.py` for score,
waits, advise and variants, and for games the live store (`live/store.Store`, the same events
and the same fold) on a SQLite file that the worker keeps in the browser's IndexedDB. What
only a server can do (the event stream, join links) is `not_found` here; a game moves to a
server as a file: `export` here, `mjcalc game import` there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.errors import InputError, MjcalcError
from ..core.words import LANGUAGES, N_, Text, speaking
from . import api
from .page_words import words_json

if TYPE_CHECKING:
    from ..live.store import Change, Store

Reply = tuple[int, str | None, str]  # status, ETag (the game's version) or None, body

DB = "/data/games.db"  # in the worker's file system, kept in IndexedDB
_GAME = re.compile(r"/api/games/(?P<game>[^/]+)(?P<rest>(?:/[^/]+){0,2})")


def _store() -> Store:
    from ..live.store import Store

    return Store(DB)


def _state(report: Any, version: int) -> Reply:
    from ..game import report_json

    return 200, str(version), report_json(report)


def _stale(s: Store, game: str, err: MjcalcError) -> Reply:
    """409 `stale_version` with the game as it now stands, as `mjcalc serve` answers it."""
    from ..game import report_json
    from ..present.errors import clean

    report, version = s.snapshot(game)
    error = json.dumps({"code": err.code, "message": clean(err.message)}, ensure_ascii=False)
    return 409, str(version), f'{{"valid": false, "error": {error}, "version": {version}, "state": {report_json(report)}}}'


def _write(game: str, act: Callable[[Store], Change]) -> Reply:
    with _store() as s:
        try:
            change = act(s)
        except MjcalcError as err:
            if err.code == "stale_version":
                return _stale(s, game, err)
            raise
    return _state(change.report, change.version)


def _number(text: str, code: str) -> int:
    """A game's or a hand's number in a path, as `mjcalc serve` reads it (web/http.py)."""
    if text.isascii() and text.isdigit() and len(text) < 10:
        return int(text)
    if code == "unknown_hand":
        raise InputError(code, "a hand is named by its number (1, 2, ...), not {value!r}", value=text[:40])
    raise InputError(code, "a game is named by its number, not {value!r}", value=text[:40])


def _body_object(body: Any, what: Text) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise InputError("bad_record", "{what} must be a JSON object, not {name}", what=what, name=api.json_kind(body))
    return body


def messages() -> str:
    """`GET /api/messages`: every error code's message, `{code: {"zh", "en"}}`."""
    from ..core.errors import MESSAGES

    return json.dumps({code: {"zh": zh, "en": en} for code, (zh, en) in MESSAGES.items()}, ensure_ascii=False)


def _new_game(body: Any) -> Reply:
    given = _body_object(body, N_("a new game"))
    unknown = sorted(set(given) - {"variant", "players", "dealer", "chips"})
    if unknown:
        raise InputError("unknown_field", "unknown field {name!r}; a new game takes variant, players, dealer, chips", name=unknown[0])
    with _store() as s:
        info = s.new_game({"variant": given.get("variant", "wuhu315"), "players": given.get("players"),
                           "dealer": given.get("dealer"), "chips": given.get("chips")})
    return 201, None, json.dumps({"id": info.id, "token": info.token})


def _game_route(method: str, game: str, rest: str, body: Any, version: int | None, query: dict[str, str]) -> Reply:
    _number(game, "unknown_game")
    parts = rest.strip("/").split("/") if rest else []
    if not parts and method == "GET":
        with _store() as s:
            return _state(*s.snapshot(game))
    if parts == ["hands"] and method == "POST":
        hand = _body_object(body, N_("a hand"))
        return _write(game, lambda s: s.add(game, hand, expect=version))
    if parts == ["hands"] and method == "GET":
        with _store() as s:
            return 200, None, json.dumps(s.hands(s.game(game).id), ensure_ascii=False)
    if len(parts) == 2 and parts[0] == "hands" and method in ("PUT", "DELETE"):
        no = _number(parts[1], "unknown_hand")
        if method == "DELETE":
            return _write(game, lambda s: s.delete(game, no, expect=version))
        hand = _body_object(body, N_("a hand"))
        return _write(game, lambda s: s.edit(game, no, hand, expect=version))
    if parts == ["undo"] and method == "POST":
        return _write(game, lambda s: s.take_back(game, expect=version))
    if parts == ["redo"] and method == "POST":
        return _write(game, lambda s: s.redo(game, expect=version))
    if parts == ["history"] and method == "GET":
        with _store() as s:
            return 200, None, json.dumps(s.history(game), ensure_ascii=False)
    if parts == ["export"] and method == "GET":
        return 200, None, export(game, query.get("format", "yaml"))
    raise InputError("not_found", "{route}: not in a page without a server", route=f"{method} /api/games/{game}{rest}")


def export(game: str, fmt: str = "yaml") -> str:
    """The game as `mjcalc game export --format yaml|csv` prints it: what `mjcalc game settle` reads."""
    from ..live.export import export_yaml

    with _store() as s:
        info = s.game(game)
        hands = s.hands(info.id)
    if fmt == "csv":
        from ..game.csv_log import live_csv

        return live_csv(info.id, info.header, info.created, hands)
    if fmt != "yaml":
        raise InputError("bad_field", "an export is yaml or csv, not {value!r}", value=fmt[:20])
    return export_yaml(info, hands)


def import_games(name: str, text: str) -> list[int]:
    """The games of a game file's text (YAML, JSON Lines or a CSV log) as new games (`live.transfer`)."""
    import os
    import tempfile

    from ..live.transfer import import_games as imported

    base = os.path.basename(name) or "game.yaml"
    if os.path.splitext(base)[1].lower() not in (".yaml", ".yml", ".csv", ".jsonl", ".ndjson"):
        base += ".yaml"
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, base)
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
        with _store() as s:
            return imported(s, path)


def answer(method: str, path: str, body_text: str | None = None, version: int | None = None,
           query: dict[str, str] | None = None) -> Reply:
    """One request of the page, answered as `mjcalc serve` answers it."""
    try:
        body = None if body_text is None else json.loads(body_text)
    except (ValueError, RecursionError):
        return 400, None, api.error_body("bad_json", N_("the body must be one JSON value (UTF-8)"))
    try:
        if isinstance(body, dict) and "version" in body and version is None:
            given = body.pop("version")
            version = given if isinstance(given, int) and not isinstance(given, bool) else None
        return _route(method.upper(), path, body, version, query or {})
    except MjcalcError as err:
        status, text = api.error_answer(err)
        return status, None, text
    except Exception as exc:  # the page gets the server's shape of an internal error, never a traceback
        return 500, None, api.error_body("internal_error", N_("internal error ({kind}); please report this request",
                                                               kind=type(exc).__name__))


def _route(method: str, path: str, body: Any, version: int | None, query: dict[str, str]) -> Reply:
    simple: dict[tuple[str, str], Callable[[], tuple[int, str]]] = {
        ("POST", "/api/score"): lambda: api.answer_score(body),
        ("POST", "/api/waits"): lambda: api.answer_waits(body),
        ("POST", "/api/advise"): lambda: api.answer_advise(body),
        ("GET", "/api/variants"): api.answer_variants,
        ("GET", "/api/messages"): lambda: (200, messages()),
        ("GET", "/api/words"): lambda: (200, words_json()),
    }
    if (method, path) in simple:
        status, text = simple[method, path]()
        return status, None, text
    if path == "/api/games" and method == "GET":
        with _store() as s:
            return 200, None, json.dumps([g.to_dict() for g in s.games()], ensure_ascii=False)
    if path == "/api/games" and method == "POST":
        return _new_game(body)
    if path == "/api/games/import" and method == "POST":
        given = _body_object(body, N_("an import"))
        content, name = given.get("text"), given.get("name", "game.yaml")
        if not isinstance(content, str) or not isinstance(name, str):
            raise InputError("bad_field", "an import is a JSON object with \"name\" (the file name) and \"text\" (the game file)")
        return 201, None, json.dumps({"games": import_games(name, content)})
    match = _GAME.fullmatch(path)
    if match is not None:
        return _game_route(method, match["game"], match["rest"], body, version, query)
    raise InputError("not_found", "{route}: not in a page without a server", route=f"{method} {path}")


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
