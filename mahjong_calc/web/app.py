"""The ASGI app behind `mjcalc serve`: the static page and the JSON API (Starlette).

Every answer of the API is JSON in the CLI's shape, also for a route that does not
exist, a body over `MAX_BODY`, a body that is not JSON, or a missing token: a 4xx,
never a traceback. With `tokens=True` (a server reachable from the network) each
request must carry a game's access token (`?token=` or the `X-Mjcalc-Token` header):
a game's routes its own game's token, the others any game's token.

A request that changes something (`POST`, `PUT`, `PATCH`, `DELETE`) must come from the
server's own page: its `Origin` (or, without one, its `Referer`) must be the server's
own origin, and a JSON body must say `Content-Type: application/json`. Browsers send
`Origin` with every cross-origin `POST`, also a `no-cors` fetch or a form, so a page
elsewhere cannot write; a request with neither header (curl, scripts) is not a page
acting for someone, and is let through.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import re
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..core.errors import MjcalcError
from . import api, is_loopback, join_url

if TYPE_CHECKING:
    from ..live.store import Change, GameInfo, Store

MAX_BODY = 1 << 20  # 1 MB: a hand is a few hundred bytes
STATIC = Path(__file__).resolve().parent / "static"
TOKEN_HEADER = "x-mjcalc-token"
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DEFAULT_PORT = {"http": 80, "https": 443}
POLL = 0.25  # seconds between two looks at a game's version, for a change made elsewhere (the CLI, another server)
HEARTBEAT = 15.0  # seconds of quiet after which an event stream sends a comment, so that proxies keep it open
STREAM_FOR = 300.0  # seconds an event stream lasts; the browser's EventSource then reconnects by itself


class ApiError(Exception):
    def __init__(self, code: str, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.code, self.message = code, message
        self.status = status if status is not None else api.STATUS.get(code, 400)


def _json(status: int, body: str) -> Response:
    return Response(body, status_code=status, media_type="application/json; charset=utf-8")


def _error(code: str, message: str, status: int | None = None) -> Response:
    return _json(status if status is not None else api.STATUS.get(code, 400), api.error_body(code, message))


async def _body(request: Request) -> Any:
    """The request's JSON body, at most MAX_BODY bytes, sent as `application/json`."""
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media != "application/json":
        given = f"not {media[:60]!r}" if media else "none was given"
        raise ApiError("bad_content_type", f"the body must be sent with Content-Type: application/json ({given})", 415)
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise ApiError("body_too_large", f"the body must be at most {MAX_BODY} bytes")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise ApiError("body_too_large", f"the body must be at most {MAX_BODY} bytes")
    try:
        return json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        raise ApiError("bad_json", "the body must be one JSON value (UTF-8)") from None


async def _optional_body(request: Request) -> Any:
    """The JSON body of a request that may have none (an undo, a delete): None when it has none."""
    if request.headers.get("content-length", "0") == "0" and "transfer-encoding" not in request.headers:
        return None
    return await _body(request)


def expected_version(request: Request, body: Any) -> int | None:
    """The version a change was made against: the `If-Match` header (`"7"`, or `*` for any) or
    the body's `"version"` (taken out of the body); None when neither is given."""
    given: Any = None
    where = "If-Match"
    header = request.headers.get("if-match")
    if isinstance(body, dict) and "version" in body:
        given, where = body.pop("version"), '"version"'
    elif header is not None and header.strip() != "*":
        text = header.strip().removeprefix("W/").strip('"')
        given = int(text) if text.isascii() and text.isdigit() and len(text) < 19 else header
    if given is None:
        return None
    if isinstance(given, bool) or not isinstance(given, int) or given < 0:
        raise ApiError("bad_field", f"{where} must be the game's version, a whole number (the ETag of its state), "
                       f"not {str(given)[:40]!r}")
    return given


Handler = Callable[[Request], Awaitable[Response]]


def create_app(db: str | Path | None = None, *, tokens: bool = False, public: str | None = None,
               announce: Callable[[GameInfo], None] | None = None) -> Starlette:
    """The app; `db` is the games database (default: `live.default_db_path()`). `public` is the
    address phones reach it at (`http://192.168.1.20:8315/`), for join links (default: the
    request's own); `announce` is told of every game created while the app runs, wherever."""
    from ..live.store import Store

    listeners: set[asyncio.Event] = set()  # one per open event stream: set when this app changed a game

    def notify() -> None:
        for ev in listeners:
            ev.set()

    def store() -> Store:
        return Store(db)

    def token_of(request: Request) -> str | None:
        return request.headers.get(TOKEN_HEADER) or request.query_params.get("token")

    def check_token(request: Request, game: int | None) -> None:
        """With tokens on: a game's routes need that game's token, the others any game's token."""
        if not tokens:
            return
        given = token_of(request)
        if not given:
            raise ApiError("missing_token", "this server is open to the network: open the link with ?token=… that `mjcalc serve` printed")
        with store() as s:
            known = [t for g, t in s.tokens().items() if game is None or g == game]
        if not any(secrets.compare_digest(t.encode(), given.encode()) for t in known):
            raise ApiError("bad_token", "the access token does not open this game")

    def check_host(request: Request) -> None:
        """On loopback, only a page that names a loopback host may call (a web page elsewhere
        could otherwise reach it through DNS rebinding)."""
        if tokens:
            return
        host = request.headers.get("host", "")
        parsed = _origin(request.url.scheme, host)
        server = request.scope.get("server")
        port = server[1] if server else None  # the port this server listens on
        if parsed is None or not _loopback_name(parsed[1]) or (port is not None and parsed[2] != port):
            raise ApiError("bad_host", f"this server answers on loopback only, not for host {host[:60]!r}", 403)

    def check_origin(request: Request) -> None:
        """A write must come from this server's own page (see the module's docstring)."""
        if request.method not in WRITES:
            return
        origin = request.headers.get("origin")
        if origin is None:
            referer = request.headers.get("referer")
            if referer is None:
                return  # not sent by a browser: nobody's page acts here
            origin = referer
        own = _origin(request.url.scheme, request.headers.get("host", ""))
        if own is None or _origin_of_url(origin) != own:
            raise ApiError("bad_origin", f"a change must come from this server's own page ({request.url.scheme}://"
                           f"{request.headers.get('host', '')[:60]}), not from {origin[:80]!r}", 403)

    def endpoint(fn: Callable[[Request], Awaitable[Response]], game_route: bool = False) -> Handler:
        async def handle(request: Request) -> Response:
            try:
                game = None
                if game_route:
                    game = _game_in_path(request.path_params["game"])
                check_host(request)
                check_origin(request)
                check_token(request, game)
                return await fn(request)
            except ApiError as err:
                return _error(err.code, err.message, err.status)
            except MjcalcError as err:
                return _json(*api.error_answer(err))
            except Exception as exc:
                return _error("internal_error", f"internal error ({type(exc).__name__}); please report this request")
        return handle

    async def score(request: Request) -> Response:
        body = await _body(request)
        return _json(*await run_in_threadpool(api.answer_score, body))

    async def waits(request: Request) -> Response:
        body = await _body(request)
        return _json(*await run_in_threadpool(api.answer_waits, body))

    async def messages(request: Request) -> Response:
        """`GET /api/messages`: every error code's message, `{code: {"zh", "en"}}` (core/errors.MESSAGES)."""
        from ..core.errors import MESSAGES

        return _json(200, json.dumps({code: {"zh": zh, "en": en} for code, (zh, en) in MESSAGES.items()}, ensure_ascii=False))

    async def advise(request: Request) -> Response:
        body = await _body(request)
        return _json(*await run_in_threadpool(api.answer_advise, body))

    async def variants(request: Request) -> Response:
        return _json(*await run_in_threadpool(api.answer_variants))

    def _state(report: Any, version: int) -> Response:
        """A game's state, `mjcalc game settle FILE --json`; its version in the ETag."""
        from ..game import report_json

        return Response(report_json(report), status_code=200, media_type="application/json; charset=utf-8",
                        headers={"etag": f'"{version}"'})

    def stale(s: Store, game: str, err: MjcalcError) -> Response:
        """409 `stale_version`, with the game as it now stands (`state`) and its `version`."""
        report, version = s.snapshot(game)
        from ..game import report_json
        from ..present.render import clean

        body = (f'{{"valid": false, "error": {json.dumps({"code": err.code, "message": clean(err.message)}, ensure_ascii=False)}, '
                f'"version": {version}, "state": {report_json(report)}}}')
        return Response(body, status_code=409, media_type="application/json; charset=utf-8", headers={"etag": f'"{version}"'})

    def write(request: Request, act: Callable[[Store, int | None], Change]) -> Callable[[int | None], Response]:
        """A change to a game: made against the version the request names, answered with the new state."""
        def run(expect: int | None) -> Response:
            with store() as s:
                try:
                    change = act(s, expect)
                except MjcalcError as err:
                    if err.code == "stale_version":
                        return stale(s, request.path_params["game"], err)
                    raise
            return _state(change.report, change.version)
        return run

    async def games(request: Request) -> Response:
        def run() -> list[dict[str, Any]]:
            with store() as s:
                rows = s.games()
            given = token_of(request)
            if tokens:  # only the games this token opens
                rows = [g for g in rows if given and g.token and secrets.compare_digest(g.token.encode(), given.encode())]
            return [g.to_dict() for g in rows]

        return _json(200, json.dumps(await run_in_threadpool(run), ensure_ascii=False))

    async def new_game(request: Request) -> Response:
        body = await _body(request)
        if not isinstance(body, dict):
            raise ApiError("bad_record", "a new game is a JSON object: {variant, players, dealer}")
        unknown = sorted(set(body) - {"variant", "players", "dealer", "chips"})
        if unknown:
            raise ApiError("unknown_field", f"unknown field {unknown[0]!r}; a new game takes variant, players, dealer, chips")

        def run() -> Response:
            with store() as s:
                info = s.new_game({"variant": body.get("variant", "wuhu315"), "players": body.get("players"),
                                   "dealer": body.get("dealer"), "chips": body.get("chips")})
            return _json(201, json.dumps({"id": info.id, "token": info.token}))

        return await run_in_threadpool(run)

    async def show(request: Request) -> Response:
        def run() -> Response:
            with store() as s:
                return _state(*s.snapshot(request.path_params["game"]))

        return await run_in_threadpool(run)

    async def _hand_body(request: Request) -> tuple[dict[str, Any], int | None]:
        body = await _body(request)
        if not isinstance(body, dict):
            raise ApiError("bad_record", f"a hand must be a JSON object, not {type(body).__name__}")
        return body, expected_version(request, body)

    async def changed(request: Request, act: Callable[[Store, int | None], Change], expect: int | None) -> Response:
        answer = await run_in_threadpool(write(request, act), expect)
        if answer.status_code == 200:
            notify()  # this app's event streams look at once, not at their next poll
        return answer

    async def add(request: Request) -> Response:
        body, expect = await _hand_body(request)
        game = request.path_params["game"]
        return await changed(request, lambda s, v: s.add(game, body, expect=v), expect)

    async def edit(request: Request) -> Response:
        no = _hand_no(request.path_params["n"])
        body, expect = await _hand_body(request)
        game = request.path_params["game"]
        return await changed(request, lambda s, v: s.edit(game, no, body, expect=v), expect)

    async def delete(request: Request) -> Response:
        no = _hand_no(request.path_params["n"])
        expect = expected_version(request, await _optional_body(request))
        game = request.path_params["game"]
        return await changed(request, lambda s, v: s.delete(game, no, expect=v), expect)

    async def undo(request: Request) -> Response:
        expect = expected_version(request, await _optional_body(request))
        game = request.path_params["game"]
        return await changed(request, lambda s, v: s.take_back(game, expect=v), expect)

    async def redo(request: Request) -> Response:
        expect = expected_version(request, await _optional_body(request))
        game = request.path_params["game"]
        return await changed(request, lambda s, v: s.redo(game, expect=v), expect)

    async def events(request: Request) -> Response:
        """`GET /api/games/{id}/events`: Server-Sent Events, one `change` per new version of the game
        (made here, by the CLI or by another server), after a `ready` with the version now."""
        def opened() -> tuple[Store, int, int]:
            s = store()
            try:
                info = s.game(request.path_params["game"])
                return s, info.id, s.game_version(info.id)
            except BaseException:
                s.close()
                raise

        s, gid, version = await run_in_threadpool(opened)
        wake = asyncio.Event()

        def message(kind: str, version: int) -> str:
            return f"event: {kind}\nid: {version}\ndata: {json.dumps({'game': gid, 'version': version})}\n\n"

        async def stream() -> AsyncIterator[str]:
            loop = asyncio.get_running_loop()
            listeners.add(wake)
            try:
                last, began = version, loop.time()
                quiet = began
                yield "retry: 1000\n" + message("ready", last)
                while loop.time() - began < STREAM_FOR:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(wake.wait(), POLL)
                    wake.clear()
                    try:
                        now = await run_in_threadpool(s.game_version, gid)
                    except MjcalcError as err:  # the database went away or is damaged: say so, and end the stream
                        yield f"event: error\ndata: {api.error_body(err.code, err.message)}\n\n"
                        return
                    if now != last:  # one event per change, also for changes made between two looks
                        yield "".join(message("change", v) for v in range(last + 1, now + 1)) if now > last else message("change", now)
                        last, quiet = now, loop.time()
                    elif loop.time() - quiet > HEARTBEAT:
                        quiet = loop.time()
                        yield ": still here\n\n"
            finally:
                listeners.discard(wake)
                s.close()

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"cache-control": "no-store", "x-accel-buffering": "no"})

    async def join(request: Request) -> Response:
        """`GET /api/games/{id}/join`: the link that opens the game on another phone, and its QR code (SVG)."""
        def run() -> Response:
            with store() as s:
                info = s.game(request.path_params["game"])
            url = join_url(public or str(request.base_url), info.id, info.token if tokens else None)
            return _json(200, json.dumps({"game": info.id, "url": url, "svg": qr_svg(url)}, ensure_ascii=False))

        return await run_in_threadpool(run)

    async def export(request: Request) -> Response:
        from ..live import export_yaml

        def run() -> Response:
            with store() as s:
                info = s.game(request.path_params["game"])
                text = export_yaml(info, s.hands(info.id))
            return PlainTextResponse(text, media_type="application/yaml; charset=utf-8",
                                     headers={"content-disposition": f'attachment; filename="mjcalc-game-{info.id}.yaml"'})

        return await run_in_threadpool(run)

    async def hands(request: Request) -> Response:
        """`GET /api/games/{id}/hands`: the hands in play as entered (or last changed), game-record hands."""
        def run() -> Response:
            with store() as s:
                info = s.game(request.path_params["game"])
                return _json(200, json.dumps(s.hands(info.id), ensure_ascii=False))

        return await run_in_threadpool(run)

    async def history(request: Request) -> Response:
        def run() -> Response:
            with store() as s:
                events = s.history(request.path_params["game"])
            return _json(200, json.dumps(events, ensure_ascii=False))

        return await run_in_threadpool(run)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    async def season(request: Request) -> Response:  # the season view: web/season.py, static/season.html
        from .season import season_answer

        return _json(*await run_in_threadpool(season_answer, store, request.query_params, token_of(request), tokens))

    async def season_page(request: Request) -> Response:
        return FileResponse(STATIC / "season.html", media_type="text/html; charset=utf-8")

    routes = [
        Route("/", index),
        Route("/api/score", endpoint(score), methods=["POST"]),
        Route("/api/waits", endpoint(waits), methods=["POST"]),
        Route("/api/advise", endpoint(advise), methods=["POST"]),
        Route("/api/variants", endpoint(variants)),
        Route("/api/messages", endpoint(messages)),
        Route("/api/games", endpoint(games), methods=["GET"]),
        Route("/api/games", endpoint(new_game), methods=["POST"]),
        Route("/api/games/{game}", endpoint(show, True)),
        Route("/api/games/{game}/hands", endpoint(add, True), methods=["POST"]),
        Route("/api/games/{game}/hands", endpoint(hands, True), methods=["GET"]),
        Route("/api/games/{game}/hands/{n}", endpoint(edit, True), methods=["PUT"]),
        Route("/api/games/{game}/hands/{n}", endpoint(delete, True), methods=["DELETE"]),
        Route("/api/games/{game}/undo", endpoint(undo, True), methods=["POST"]),
        Route("/api/games/{game}/redo", endpoint(redo, True), methods=["POST"]),
        Route("/api/games/{game}/export", endpoint(export, True)),
        Route("/api/games/{game}/history", endpoint(history, True)),
        Route("/api/games/{game}/events", endpoint(events, True)),
        Route("/api/games/{game}/join", endpoint(join, True)),
        Route("/season", season_page),
        Route("/api/season", endpoint(season)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    async def http_error(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        code = "not_found" if status == 404 else "method_not_allowed" if status == 405 else "bad_request" if status < 500 else "internal_error"
        return _error(code, f"{request.method} {request.url.path}: {getattr(exc, 'detail', 'error')}", status)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(watch_games()) if announce is not None else None
        try:
            yield
        finally:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def watch_games() -> None:
        """Tell `announce` of each game created since the app started, by any process."""
        assert announce is not None
        with store() as s:
            last = await run_in_threadpool(s.last_game_id)
            while True:
                await asyncio.sleep(1.0)
                for info in await run_in_threadpool(s.games_after, last):
                    announce(info)
                    last = info.id

    return Starlette(routes=routes, exception_handlers={HTTPException: http_error}, lifespan=lifespan)


def qr_svg(text: str) -> str | None:
    """The QR code of `text` as an SVG document (segno, in the web extra); None without segno."""
    try:
        import segno
    except ImportError:
        return None
    import io

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=4, border=2, dark="#1d2321", light="#ffffff", xmldecl=False)
    return out.getvalue().decode("utf-8")


def _hand_no(value: str) -> int:
    if value.isascii() and value.isdigit() and len(value) < 10:
        return int(value)
    raise ApiError("unknown_hand", f"a hand is named by its number (1, 2, ...), not {value[:40]!r}")


def _game_in_path(value: str) -> int:
    from ..live.store import game_number

    number = game_number(value)
    if number is None:
        raise ApiError("unknown_game", f"a game is named by its number, not {value[:40]!r}")
    return number


_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST = re.compile(rf"(?:\[(?P<ip6>[0-9A-Fa-f:.]+)\]|(?P<name>{_LABEL}(?:\.{_LABEL})*))(?::(?P<port>[0-9]{{1,5}}))?")


def parse_host(value: str) -> tuple[str, int | None] | None:
    """A Host header (`127.0.0.1:8315`, `localhost`, `[::1]:8315`) as (host, port or None), lower case;
    None unless it is exactly a name, an IPv4 address or a bracketed IPv6 address, and digits for the port."""
    match = _HOST.fullmatch(value)
    if match is None:
        return None
    port = int(match["port"]) if match["port"] is not None else None
    if port is not None and port > 65535:
        return None
    if match["ip6"] is not None:
        try:
            return f"[{ipaddress.IPv6Address(match['ip6']).compressed}]", port
        except ValueError:
            return None
    return match["name"].lower(), port


def _origin(scheme: str, host: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin, the scheme's default port filled in."""
    parsed = parse_host(host)
    if parsed is None or scheme not in DEFAULT_PORT:
        return None
    return scheme, parsed[0], parsed[1] if parsed[1] is not None else DEFAULT_PORT[scheme]


def _origin_of_url(url: str) -> tuple[str, str, int] | None:
    """The origin of an `Origin` or `Referer` header's URL (None for `null` or anything unreadable)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if "@" in parts.netloc:
        return None
    return _origin(parts.scheme.lower(), parts.netloc)


def _loopback_name(name: str) -> bool:
    """Whether a host of `parse_host` (`127.0.0.1`, `localhost`, `[::1]`) names this machine."""
    return is_loopback(name)
