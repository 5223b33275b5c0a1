"""The ASGI app behind `mjcalc serve`: the static page and the JSON API (Starlette).

Every answer of the API is JSON in the CLI's shape, also for a route that does not
exist, a body over `MAX_BODY`, a body that is not JSON, or a missing token: a 4xx,
never a traceback. Who may call is checked in one place (`access.py`: the host on
loopback, the origin of a write, the token with `tokens=True`); the routes are the rows of
the API's table (`table.py`, which a site's worker answers too), made Starlette endpoints by
`rows.py`, and what only a server answers (`routes_games.py`: the event stream, the join link,
the season, the pages; `streams.py`: event streams, and the one poller behind them).
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
from . import routes_games as games
from .access import endpoint
from .context import Context
from .http import MAX_BODY, error_response
from .pages import STATIC
from .rows import endpoint as row_endpoint
from .starts import StartLimits, Starts
from .streams import Hub, StreamLimits, stream_total
from .table import ROWS
from .work import Work, WorkLimits

if TYPE_CHECKING:
    from ..live.limits import StoreLimits
    from ..live.store import GameInfo

STATES = WorkLimits(workers=2, queue=32, per_client=16)  # a page asks for a state after every change, several pages at once
READS = WorkLimits(workers=2, queue=30, per_client=8)  # export, history, the hands in play: long, a piece at a time


def create_app(db: str | Path | None = None, *, tokens: bool = False, public: str | None = None,
               announce: Callable[[GameInfo], None] | None = None, streams: StreamLimits | None = None,
               work: WorkLimits | None = None, starts: StartLimits | None = None, limits: StoreLimits | None = None,
               proxy_headers: bool = False) -> Starlette:
    """The app; `db` is the games database (default: `live.default_db_path()`). `public` is the
    address phones reach it at (`http://192.168.1.20:8315/`), for join links (default: the
    request's own); `announce` is told of every game created while the app runs, wherever;
    `streams` and `work` bound the event streams and the costly requests, `starts` the games
    begun from the network (with `tokens`), `limits` the games and the database (live/limits.py);
    `proxy_headers`: a client's address is the last of `X-Forwarded-For` from a proxy on this machine."""
    from ..live.fold import Folds
    from ..live.store import Store

    stream_limits = streams or StreamLimits()
    hub = Hub(lambda: Store(db), stream_limits, stream_total(stream_limits), announce)
    ctx = Context(db, tokens, public, hub, Work(N_("scoring"), work), Work(N_("game state"), work or STATES),
                  Work(N_("long answer"), work or READS), Starts(starts), Folds(), limits, proxy_headers)

    def api(route: Callable[..., object], game_route: bool = False, token_free: bool = False) -> Callable[[Request], object]:
        return endpoint(ctx, route, game_route, token_free)  # type: ignore[arg-type]

    routes = [
        Route("/", games.index),
        *(Route(row.path, api(row_endpoint(row), row.game_route, row.token_free), methods=[row.method]) for row in ROWS if row.serve),
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
            for pool in (ctx.calc, ctx.states, ctx.reads):
                pool.close()

    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error}, lifespan=lifespan)
    app.state.end_streams = hub.end_all  # server.run calls it first when it stops: streams do not hold the shutdown
    return app


__all__ = ["MAX_BODY", "STATIC", "create_app"]
