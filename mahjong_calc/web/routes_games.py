"""The routes only a server answers (the API's table is table.py, adapted in rows.py): a game's
event stream, its join link and QR code, the season over the games, and the pages."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse

from ..core.words import language
from . import join_url
from .access import token_of
from .http import json_response
from .pages import page
from .streams import stream
from .table import game_number

if TYPE_CHECKING:
    from .context import Context


async def join(request: Request, ctx: Context) -> Response:
    """`GET /api/games/{id}/join`: the link that opens the game on another phone, and its QR code
    (SVG); `shared` says whether another device can open it: on loopback it cannot (no QR then)."""
    def run() -> Response:
        with ctx.store() as s:
            info = s.game(request.path_params["game"])
        url = join_url(ctx.public or str(request.base_url), info.id, info.token if ctx.tokens else None)
        shared = ctx.tokens
        return json_response(200, json.dumps({"game": info.id, "url": url, "shared": shared,
                                              "svg": qr_svg(url) if shared else None}, ensure_ascii=False))

    return await run_in_threadpool(run)


async def season(request: Request, ctx: Context) -> Response:  # the season view: web/season.py, static/season.html
    from .season import season_answer

    answer = await ctx.states.run(ctx.client(request), season_answer, ctx.store, request.query_params, token_of(request), ctx.tokens)
    return json_response(*answer)


async def events(request: Request, ctx: Context) -> Response:
    """`GET /api/games/{id}/events`: Server-Sent Events, one `change` per new version of the game
    (made here, by the CLI or by another server), after a `ready` with the version now."""
    watcher = await ctx.hub.open(game_number(request.path_params["game"]), ctx.client(request))
    # the stream outlives this call: its messages in the language of the request that opened it
    return StreamingResponse(stream(ctx.hub, watcher, language()), media_type="text/event-stream",
                             headers={"cache-control": "no-store", "x-accel-buffering": "no"})


async def index(request: Request) -> Response:
    return HTMLResponse(page("index", "static/"))


async def season_page(request: Request) -> Response:
    return HTMLResponse(page("season", "/static/"))


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
