"""The routes that read live games, or begin one: the list, a game's state (its version in the
`ETag`), its hands, export, history, event stream, join link and QR code, and the season over them."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response, StreamingResponse

from ..core.words import language
from . import join_url
from .access import check_token, opens, token_of
from .http import ApiError, client_of, json_response, path_game_number, read_body
from .pages import page
from .streams import stream

if TYPE_CHECKING:
    from ..game import Report
    from .context import Context


def state_body(report: Report) -> bytes:
    """A game's state, `mjcalc game settle FILE --json`."""
    from ..game import report_json

    return report_json(report).encode("utf-8")


def state_response(body: bytes, version: int) -> Response:
    return json_response(200, body, {"etag": f'"{version}"'})


async def games(request: Request, ctx: Context) -> Response:
    """`GET /api/games`; with tokens on, only the game the token opens (a token that opens none:
    403 `bad_token`), and none at all without a token, so that a phone can begin a game."""
    given = token_of(request)
    if ctx.tokens and not given:
        return json_response(200, "[]")
    if ctx.tokens:
        check_token(ctx, request, None)

    def run() -> list[dict[str, Any]]:
        with ctx.store() as s:
            rows = s.games()
        if ctx.tokens:  # only the games this token opens
            rows = [g for g in rows if opens(g.token, given)]
        return [g.to_dict() for g in rows]

    return json_response(200, json.dumps(await run_in_threadpool(run), ensure_ascii=False))


async def new_game(request: Request, ctx: Context) -> Response:
    body = await read_body(request)
    if not isinstance(body, dict):
        raise ApiError("bad_record", "a new game is a JSON object: {variant, players, dealer}")
    unknown = sorted(set(body) - {"variant", "players", "dealer", "chips"})
    if unknown:
        raise ApiError("unknown_field", "unknown field {name!r}; a new game takes variant, players, dealer, chips", name=unknown[0])

    def run() -> Response:
        with ctx.store() as s:
            info = s.new_game({"variant": body.get("variant", "wuhu315"), "players": body.get("players"),
                               "dealer": body.get("dealer"), "chips": body.get("chips")})
        return json_response(201, json.dumps({"id": info.id, "token": info.token}))

    client = client_of(request)
    if ctx.tokens:  # from the network: bounded per client and in all (starts.py)
        ctx.starts.admit(client)
    try:
        answer = await run_in_threadpool(run)
    except BaseException:
        if ctx.tokens:
            ctx.starts.take_back(client)
        raise
    ctx.notify()
    return answer


async def show(request: Request, ctx: Context) -> Response:
    """A game's state; a big one is settled once per version and shared by the clients that ask."""
    game, named = path_game_number(request.path_params["game"]), request.path_params["game"]

    def version() -> int:
        with ctx.store() as s:
            return s.game_version(s.game(named).id)

    now = await run_in_threadpool(version)
    kept = ctx.kept_state(game, now, language())
    if kept is not None:
        return state_response(kept, now)

    def run() -> tuple[bytes, int]:
        with ctx.store() as s:
            report, version = s.snapshot(named)
        return state_body(report), version

    body, at = await ctx.states.run(client_of(request), run)
    ctx.keep_state(game, at, body, language())
    return state_response(body, at)


async def hands(request: Request, ctx: Context) -> Response:
    """`GET /api/games/{id}/hands`: the hands in play as entered (or last changed), game-record hands."""
    def run() -> Response:
        with ctx.store() as s:
            info = s.game(request.path_params["game"])
            return json_response(200, json.dumps(s.hands(info.id), ensure_ascii=False))

    return await run_in_threadpool(run)


async def history(request: Request, ctx: Context) -> Response:
    def run() -> Response:
        with ctx.store() as s:
            events = s.history(request.path_params["game"])
        return json_response(200, json.dumps(events, ensure_ascii=False))

    return await run_in_threadpool(run)


async def export(request: Request, ctx: Context) -> Response:
    from ..live.export import export_yaml

    def run() -> Response:
        with ctx.store() as s:
            info = s.game(request.path_params["game"])
            text = export_yaml(info, s.hands(info.id))
        return PlainTextResponse(text, media_type="application/yaml; charset=utf-8",
                                 headers={"content-disposition": f'attachment; filename="mjcalc-game-{info.id}.yaml"'})

    return await ctx.states.run(client_of(request), run)


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

    answer = await ctx.states.run(client_of(request), season_answer, ctx.store, request.query_params, token_of(request), ctx.tokens)
    return json_response(*answer)


async def events(request: Request, ctx: Context) -> Response:
    """`GET /api/games/{id}/events`: Server-Sent Events, one `change` per new version of the game
    (made here, by the CLI or by another server), after a `ready` with the version now."""
    watcher = await ctx.hub.open(path_game_number(request.path_params["game"]), client_of(request))
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
