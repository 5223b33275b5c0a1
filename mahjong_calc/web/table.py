"""The JSON API as one table: `(method, path) -> handler(call) -> Reply`, a call being the request's
JSON body and the game's version it names (with the path's `{game}` and `{n}`, its query, and how
to open the games database), a reply its status, ETag (a game's version) and answer.

Both homes of the page answer from this table alone: `mjcalc serve` (app.py makes each row a
Starlette route, behind access.py's checks, run as its `kind` says: in a bounded pool, on a
thread of its own, streamed) and a site's Web Worker (pocket.py finds the row with `find` and
runs it on Pyodide). What only a server does (event streams, join links, the season) and how a
server bounds its clients stay in app.py; nothing of a route is written twice. Importing this
module imports neither Starlette nor SQLite.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ..core.errors import MjcalcError
from ..core.words import N_, Text, language
from . import api
from .api import ApiError

if TYPE_CHECKING:
    from ..live.model import Change, GameInfo
    from ..live.store import Store

# how a home runs a row: `table` cheap (the page's tables), `calc` costly scoring, `state` a game's
# state, `read` a long answer made in pieces, `write` a change to a game, `start` a new game, `list` the games
Kind = Literal["table", "calc", "state", "read", "write", "start", "list"]
JSON = "application/json; charset=utf-8"
NEW_GAME_FIELDS = ("variant", "players", "dealer", "chips")


@dataclass(frozen=True)
class Reply:
    """An answer: status, ETag (the game's version, or None), body (text, UTF-8 bytes, or pieces of
    text made as they are sent), its media type and headers; `by`: the player a change names."""

    status: int
    etag: str | None
    body: str | bytes | Iterator[str]
    media: str = JSON
    headers: Mapping[str, str] = field(default_factory=dict)
    by: str | None = None

    def text(self) -> str:
        """The whole body as text (pieces joined)."""
        if isinstance(self.body, str):
            return self.body
        if isinstance(self.body, bytes):
            return self.body.decode("utf-8")
        return "".join(self.body)


@dataclass(frozen=True)
class Call:
    """A request, as a handler reads it."""

    body: Any = None
    version: int | None = None
    params: Mapping[str, str] = field(default_factory=dict)
    query: Mapping[str, str] = field(default_factory=dict)
    store: Callable[[], Store] | None = None
    sees: Callable[[GameInfo], bool] = lambda info: True  # GET /api/games: the games this caller may see
    player: str | None = None  # who makes a change, as the phone names them

    def open(self) -> Store:
        assert self.store is not None, "a route of games needs the games database"
        return self.store()


Handler = Callable[[Call], Reply]


@dataclass(frozen=True)
class Row:
    """One route: method, path (`{game}`, `{n}`: a path's part), handler and how it runs; `token_free`:
    answered without a token (it reads no game); `site`, `serve`: which homes answer it."""

    method: str
    path: str
    handler: Handler
    kind: Kind
    body: Literal["none", "json", "optional"] = "none"  # the request's JSON body: none, needed, or may be empty
    token_free: bool = False
    serve: bool = True
    site: bool = True

    @property
    def game_route(self) -> bool:
        return "{game}" in self.path


# --- what the handlers share ---------------------------------------------------------------------


def take_version(body: Any, header: str | None = None) -> int | None:
    """The version a change was made against: the body's `"version"` (taken out of the body) or the
    `If-Match` header (`"7"`, or `*` for any); None when neither is given; bad_field otherwise."""
    given: Any = None
    where = "If-Match"
    if isinstance(body, dict) and "version" in body:
        given, where = body.pop("version"), '"version"'
    elif header is not None and header.strip() != "*":
        text = header.strip().removeprefix("W/").strip('"')
        given = int(text) if text.isascii() and text.isdigit() and len(text) < 19 else header
    if given is None:
        return None
    if isinstance(given, bool) or not isinstance(given, int) or given < 0:
        raise ApiError("bad_field", "{where} must be the game's version, a whole number (the `ETag` of its state), not {given!r}",
                       where=where, given=str(given)[:40])
    return given


def game_number(value: str) -> int:
    """A game's number in a path, or unknown_game (404)."""
    from ..live.model import parse_game_number

    number = parse_game_number(value)
    if number is None:
        raise ApiError("unknown_game", "a game is named by its number, not {value!r}", value=value[:40])
    return number


def hand_number(value: str) -> int:
    """A hand's number in a path, or unknown_hand (404)."""
    if value.isascii() and value.isdigit() and len(value) < 10:
        return int(value)
    raise ApiError("unknown_hand", "a hand is named by its number (1, 2, ...), not {value!r}", value=value[:40])


def an_object(body: Any, what: Text) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise ApiError("bad_record", "{what} must be a JSON object, not {name}", what=what, name=api.json_kind(body))
    return body


def _answer(status_text: tuple[int, str]) -> Reply:
    return Reply(status_text[0], None, status_text[1])


# --- scoring and the page's tables ---------------------------------------------------------------


def score(call: Call) -> Reply:
    return _answer(api.answer_score(call.body))


def waits(call: Call) -> Reply:
    return _answer(api.answer_waits(call.body))


def advise(call: Call) -> Reply:
    return _answer(api.answer_advise(call.body))


def variants(call: Call) -> Reply:
    return _answer(api.answer_variants())


def messages(call: Call) -> Reply:
    """`GET /api/messages`: every error code's message, `{code: {"zh", "en"}}` (core/errors.MESSAGES)."""
    from ..core.errors import MESSAGES

    return Reply(200, None, json.dumps({code: {"zh": zh, "en": en} for code, (zh, en) in MESSAGES.items()}, ensure_ascii=False))


def words(call: Call) -> Reply:
    """`GET /api/words`: every word of the page in Chinese and English (web/page_words.py)."""
    from .page_words import words_json

    return Reply(200, None, words_json())


# --- games ---------------------------------------------------------------------------------------


def games(call: Call) -> Reply:
    """`GET /api/games`: `mjcalc game list --json`, the games this caller may see."""
    with call.open() as s:
        rows = [g.to_dict() for g in s.games() if call.sees(g)]
    return Reply(200, None, json.dumps(rows, ensure_ascii=False))


def new_game(call: Call) -> Reply:
    """`POST /api/games`: `{variant, players, dealer, chips?}` → 201 `{id, token}`."""
    given = an_object(call.body, N_("a new game"))
    unknown = sorted(set(given) - set(NEW_GAME_FIELDS))
    if unknown:
        raise ApiError("unknown_field", "unknown field {name!r}; a new game takes variant, players, dealer, chips", name=unknown[0])
    with call.open() as s:
        info = s.new_game({"variant": given.get("variant", "wuhu315"), **{k: given.get(k) for k in NEW_GAME_FIELDS[1:]}})
    return Reply(201, None, json.dumps({"id": info.id, "token": info.token}))


def show(call: Call) -> Reply:
    """`GET /api/games/{game}`: the game's state, `mjcalc game settle FILE --json`, its version the ETag;
    made once per version and language, and shared by every request for it (live/fold.py)."""
    with call.open() as s:
        fold = s.folded(call.params["game"])
    return Reply(200, str(fold.version), fold.state_json(language()))


def kept_state(call: Call) -> Reply | None:
    """`show`'s answer when the game's state at its version now was made already (no settling), or None."""
    with call.open() as s:
        fold = s.kept(call.params["game"])
    body = None if fold is None else fold.bodies.get(language())
    return None if fold is None or body is None else Reply(200, str(fold.version), body)


def _stale(s: Store, game: str, err: MjcalcError) -> Reply:
    """409 `stale_version`, with the game as it now stands (`state`) and its `version`."""
    from ..present.errors import clean

    fold = s.folded(game)
    error = json.dumps({"code": err.code, "message": clean(err.message)}, ensure_ascii=False)
    state = fold.state_json(language()).decode("utf-8")
    return Reply(409, str(fold.version), f'{{"valid": false, "error": {error}, "version": {fold.version}, "state": {state}}}')


def _write(call: Call, act: Callable[[Store, str, int | None], Change]) -> Reply:
    """A change to a game, made against the version the call names, answered with the new state."""
    game = call.params["game"]
    with call.open() as s:
        try:
            change = act(s, game, call.version)
        except MjcalcError as err:
            if err.code == "stale_version":
                return _stale(s, game, err)
            raise
    assert change.fold is not None
    by = call.player if call.player in change.report.game.players else None
    return Reply(200, str(change.version), change.fold.state_json(language()), by=by)


def add(call: Call) -> Reply:
    hand = an_object(call.body, N_("a hand"))
    return _write(call, lambda s, game, version: s.add(game, hand, expect=version))


def edit(call: Call) -> Reply:
    no = hand_number(call.params["n"])
    hand = an_object(call.body, N_("a hand"))
    return _write(call, lambda s, game, version: s.edit(game, no, hand, expect=version))


def delete(call: Call) -> Reply:
    no = hand_number(call.params["n"])
    return _write(call, lambda s, game, version: s.delete(game, no, expect=version))


def undo(call: Call) -> Reply:
    return _write(call, lambda s, game, version: s.take_back(game, expect=version))


def redo(call: Call) -> Reply:
    return _write(call, lambda s, game, version: s.redo(game, expect=version))


def _pieces(call: Call, make: Callable[[Store], Iterator[str]]) -> Iterator[str]:
    """A long answer's pieces, the database open until the last is made (or the answer is dropped);
    the first piece is made now, so that an unknown game is refused before anything is answered."""
    s = call.open()
    try:
        pieces = make(s)
    except BaseException:
        s.close()
        raise

    def kept_open() -> Iterator[str]:
        try:
            yield from pieces
        finally:
            s.close()

    return kept_open()


def hands(call: Call) -> Reply:
    """`GET /api/games/{game}/hands`: the hands in play as entered (or last changed)."""
    from ..live.reads import hands_pieces

    return Reply(200, None, _pieces(call, lambda s: hands_pieces(s, call.params["game"])))


def history(call: Call) -> Reply:
    """`GET /api/games/{game}/history`: every event (`mjcalc game history --json`)."""
    from ..live.reads import history_pieces

    return Reply(200, None, _pieces(call, lambda s: history_pieces(s, call.params["game"])))


EXPORTS = {"yaml": "application/yaml; charset=utf-8", "csv": "text/csv; charset=utf-8"}


def export(call: Call) -> Reply:
    """`GET /api/games/{game}/export[?format=csv]`: `mjcalc game export --format yaml|csv`, as a file."""
    from ..live.reads import export_pieces

    fmt = call.query.get("format", "yaml")
    if fmt not in EXPORTS:
        raise ApiError("bad_field", "an export is yaml or csv, not {value!r}", value=fmt[:20])
    found: list[int] = []

    def make(s: Store) -> Iterator[str]:
        info, pieces = export_pieces(s, call.params["game"], fmt)
        found.append(info.id)
        return pieces

    pieces = _pieces(call, make)
    name = f"mjcalc-game-{found[0]}.{fmt}"
    return Reply(200, None, pieces, EXPORTS[fmt], {"content-disposition": f'attachment; filename="{name}"'})


def import_games(call: Call) -> Reply:
    """`POST /api/games/import` (a site): `{name, text}`, a game file, stored as new games: 201 `{games}`."""
    import os
    import tempfile

    from ..live.transfer import import_games as imported

    given = an_object(call.body, N_("an import"))
    text, name = given.get("text"), given.get("name", "game.yaml")
    if not isinstance(text, str) or not isinstance(name, str):
        raise ApiError("bad_field", "an import is a JSON object with \"name\" (the file name) and \"text\" (the game file)")
    base = os.path.basename(name) or "game.yaml"
    if os.path.splitext(base)[1].lower() not in (".yaml", ".yml", ".csv", ".jsonl", ".ndjson"):
        base += ".yaml"
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, base)
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
        with call.open() as s:
            made = imported(s, path)
    return Reply(201, None, json.dumps({"games": made}))


ROWS: tuple[Row, ...] = (
    Row("POST", "/api/score", score, "calc", "json"),
    Row("POST", "/api/waits", waits, "calc", "json"),
    Row("POST", "/api/advise", advise, "calc", "json"),
    Row("GET", "/api/variants", variants, "table", token_free=True),
    Row("GET", "/api/messages", messages, "table", token_free=True),
    Row("GET", "/api/words", words, "table", token_free=True),
    Row("GET", "/api/games", games, "list", token_free=True),  # without a token, a server shows none
    Row("POST", "/api/games", new_game, "start", "json", token_free=True),  # bounded per client on a server (starts.py)
    Row("POST", "/api/games/import", import_games, "write", "json", serve=False),  # a server imports with `mjcalc game import`
    Row("GET", "/api/games/{game}", show, "state"),
    Row("POST", "/api/games/{game}/hands", add, "write", "json"),
    Row("GET", "/api/games/{game}/hands", hands, "read"),
    Row("PUT", "/api/games/{game}/hands/{n}", edit, "write", "json"),
    Row("DELETE", "/api/games/{game}/hands/{n}", delete, "write", "optional"),
    Row("POST", "/api/games/{game}/undo", undo, "write", "optional"),
    Row("POST", "/api/games/{game}/redo", redo, "write", "optional"),
    Row("GET", "/api/games/{game}/export", export, "read"),
    Row("GET", "/api/games/{game}/history", history, "read"),
)


def _pattern(path: str) -> re.Pattern[str]:
    return re.compile(re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(path)))


_PATTERNS = tuple((row, _pattern(row.path)) for row in ROWS)


def find(method: str, path: str, home: Literal["serve", "site"]) -> tuple[Row, dict[str, str]]:
    """The row that answers `method path` in this home, and the path's parts; not_found (404) for a
    path no row has, method_not_allowed (405) for a method it does not take."""
    known = False
    for row, pattern in _PATTERNS:
        if not getattr(row, home):
            continue
        match = pattern.fullmatch(path)
        if match is None:
            continue
        if row.method == method:
            params = match.groupdict()
            if "game" in params:
                game_number(params["game"])
            return row, params
        known = True
    route = f"{method} {path[:200]}"
    if known:
        raise ApiError("method_not_allowed", "{route}: this address does not take that method", route=route)
    raise ApiError("not_found", "{route}: no such address", route=route)
