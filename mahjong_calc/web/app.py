"""The ASGI app behind `mjcalc serve`: the static page and the JSON API (Starlette).

Every answer of the API is JSON in the CLI's shape, also for a route that does not
exist, a body over `MAX_BODY`, a body that is not JSON, or a missing token: a 4xx,
never a traceback. Who may call is checked in one place (`access.py`: the host on
loopback, the origin of a write, the token with `tokens=True`); the routes are in
`routes_calc.py` (scoring), `routes_games.py` (reading games), `routes_hands.py`
(changing them) and `streams.py` (event streams, and the one poller behind them).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..core.words import N_, language_of_header, speaking
from . import routes_calc as calc
from . import routes_games as games
from . import routes_hands as hands
from .access import endpoint
from .context import Context
from .http import MAX_BODY, error_response
from .pages import STATIC
from .starts import StartLimits, Starts
from .streams import Hub, StreamLimits, stream_total
from .work import Work, WorkLimits

if TYPE_CHECKING:
    from ..live.store import GameInfo

STATES = WorkLimits(workers=2, queue=32, per_client=16)  # a page asks for a state after every change, several pages at once


def create_app(db: str | Path | None = None, *, tokens: bool = False, public: str | None = None,
               announce: Callable[[GameInfo], None] | None = None, streams: StreamLimits | None = None,
               work: WorkLimits | None = None, starts: StartLimits | None = None) -> Starlette:
    """The app; `db` is the games database (default: `live.default_db_path()`). `public` is the
    address phones reach it at (`http://192.168.1.20:8315/`), for join links (default: the
    request's own); `announce` is told of every game created while the app runs, wherever;
    `streams` and `work` bound the event streams and the costly requests, `starts` the games
    begun from the network (with `tokens`)."""
    from ..live.store import Store

    stream_limits = streams or StreamLimits()
    hub = Hub(lambda: Store(db), stream_limits, stream_total(stream_limits), announce)
    ctx = Context(db, tokens, public, hub, Work(N_("scoring"), work),
                  Work(N_("game state"), work or STATES), Starts(starts))

    def api(route: Callable[..., object], game_route: bool = False, token_free: bool = False) -> Callable[[Request], object]:
        return endpoint(ctx, route, game_route, token_free)  # type: ignore[arg-type]

    routes = [
        Route("/", games.index),
        Route("/api/score", api(calc.score), methods=["POST"]),
        Route("/api/waits", api(calc.waits), methods=["POST"]),
        Route("/api/advise", api(calc.advise), methods=["POST"]),
        Route("/api/variants", api(calc.variants, token_free=True)),
        Route("/api/messages", api(calc.messages, token_free=True)),
        Route("/api/words", api(calc.words, token_free=True)),
        Route("/api/games", api(games.games, token_free=True), methods=["GET"]),  # without a token: none
        Route("/api/games", api(games.new_game, token_free=True), methods=["POST"]),  # bounded: starts.py
        Route("/api/games/{game}", api(games.show, True)),
        Route("/api/games/{game}/hands", api(hands.add, True), methods=["POST"]),
        Route("/api/games/{game}/hands", api(games.hands, True), methods=["GET"]),
        Route("/api/games/{game}/hands/{n}", api(hands.edit, True), methods=["PUT"]),
        Route("/api/games/{game}/hands/{n}", api(hands.delete, True), methods=["DELETE"]),
        Route("/api/games/{game}/undo", api(hands.undo, True), methods=["POST"]),
        Route("/api/games/{game}/redo", api(hands.redo, True), methods=["POST"]),
        Route("/api/games/{game}/export", api(games.export, True)),
        Route("/api/games/{game}/history", api(games.history, True)),
        Route("/api/games/{game}/events", api(games.events, True)),
        Route("/api/games/{game}/join", api(games.join, True)),
        Route("/season", games.season_page),
        Route("/api/season", api(games.season)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    async def http_error(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        code = "not_found" if status == 404 else "method_not_allowed" if status == 405 else "bad_request" if status < 500 else "internal_error"
        route = f"{request.method} {request.url.path[:200]}"
        message = (N_("{route}: no such address", route=route) if status == 404
                   else N_("{route}: this address does not take that method", route=route) if status == 405
                   else N_("{route}: {detail}", route=route, detail=str(getattr(exc, "detail", "error"))[:200]))
        with speaking(language_of_header(request.headers.get("accept-language"))):
            return error_response(code, message.render(), status)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(hub.run())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):  # its errors were said when they happened
                await task
            hub.stop()
            ctx.calc.close()
            ctx.states.close()

    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error}, lifespan=lifespan)
    app.state.end_streams = hub.end_all  # server.run calls it first when it stops: streams do not hold the shutdown
    return app


__all__ = ["MAX_BODY", "STATIC", "create_app"]
