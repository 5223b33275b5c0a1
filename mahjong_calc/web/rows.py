"""The API's table (table.py) as Starlette endpoints: each row's request read (its JSON body, the
version it names, who makes a change), run as its kind says, and its reply sent.

`calc` rows run in the scoring pool, `state` rows in the pool of game states (a state already made
for the game's version is sent at once), `read` rows (export, history, the hands in play) in a pool
of their own, a piece at a time, so that long answers never hold up a game's state; `write` and
`start` rows on threads of their own, never behind those pools; a change tells the game's event
streams, with the player the phone named, and a new game from the network is counted (starts.py).
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from ..present.errors import inert
from .access import check_token, opens, token_of
from .http import json_response, optional_body, read_body
from .table import JSON, Call, Reply, Row, game_number, kept_state, take_version

if TYPE_CHECKING:
    from .context import Context

PLAYER_HEADER = "x-mjcalc-player"
_RAW_CONTROL = re.compile(b"\x7f|\xc2[\x80-\x9f]")  # in UTF-8 JSON: what JSON leaves raw of the controls (DEL, C1)


def player_of(request: Request) -> str | None:
    """Who made a change, as the phone says (`X-Mjcalc-Player`, the name percent-encoded in UTF-8)."""
    from urllib.parse import unquote

    given = request.headers.get(PLAYER_HEADER)
    if not given or len(given) > 400 or not given.isascii():
        return None
    try:
        name = unquote(given, errors="strict")
    except UnicodeDecodeError:
        return None
    return name if name and len(name) <= 40 else None


def inert_bytes(data: bytes) -> bytes:
    """`inert` of UTF-8 JSON: the controls JSON leaves raw (DEL, C1; a stored name or id from before
    they were refused) written as JSON escapes, the same value."""
    return inert(data.decode("utf-8")).encode("utf-8") if _RAW_CONTROL.search(data) else data


async def _pieces(body: AsyncIterator[str] | Iterator[str], json: bool) -> AsyncIterator[str]:
    if isinstance(body, Iterator):
        for piece in body:
            yield inert(piece) if json else piece
        return
    async for piece in body:
        yield inert(piece) if json else piece


def respond(reply: Reply) -> Response:
    """A reply as Starlette's answer: its version in `ETag`; pieces sent as they are made."""
    headers = {**reply.headers, **({"etag": f'"{reply.etag}"'} if reply.etag is not None else {})}
    body: Any = reply.body
    json = reply.media == JSON
    if isinstance(body, str):
        return json_response(reply.status, inert(body) if json else body, headers, reply.media)
    if isinstance(body, bytes):
        return json_response(reply.status, inert_bytes(body) if json else body, headers, reply.media)
    return StreamingResponse(_pieces(body, json), status_code=reply.status, media_type=reply.media, headers=headers)


async def _call(request: Request, ctx: Context, row: Row) -> Call:
    """The call a request makes of its row: its body, version, path's parts and query."""
    body: Any = None
    if row.body == "json":
        body = await read_body(request)
    elif row.body == "optional":
        body = await optional_body(request)
    version = take_version(body, request.headers.get("if-match")) if row.kind == "write" else None
    given = token_of(request)
    return Call(body, version, dict(request.path_params), dict(request.query_params), ctx.store,
                (lambda info: opens(info.token, given)) if ctx.tokens else (lambda info: True),
                player_of(request) if row.kind == "write" else None)


def endpoint(row: Row) -> Callable[[Request, Context], Awaitable[Response]]:
    """The Starlette endpoint of one row (behind access.endpoint's checks)."""
    async def answer(request: Request, ctx: Context) -> Response:
        call = await _call(request, ctx, row)
        client = ctx.client(request)
        if row.kind == "calc":
            return respond(await ctx.calc.run(client, row.handler, call))
        if row.kind == "state":  # a state made already for the game's version is sent without the pool
            kept = await run_in_threadpool(kept_state, call)
            return respond(kept if kept is not None else await ctx.states.run(client, row.handler, call))
        if row.kind == "read":
            return respond(await ctx.reads.answer(client, row.handler, call))
        if row.kind == "write":
            return respond(await _write(ctx, row, call))
        if row.kind == "start":
            return respond(await _start(ctx, row, call, client))
        if row.kind == "list" and ctx.tokens:
            if not token_of(request):
                return json_response(200, "[]")  # a phone without a token sees no game
            await run_in_threadpool(check_token, ctx, request, None)  # a token that opens none: 403
        return respond(await run_in_threadpool(row.handler, call))

    return answer


async def _write(ctx: Context, row: Row, call: Call) -> Reply:
    """A change: the game's streams wait for it, and hear of it with the player who made it."""
    game = game_number(call.params["game"]) if "game" in call.params else None
    if game is None:
        reply = await run_in_threadpool(row.handler, call)
        ctx.notify()
        return reply
    ctx.hub.writing(game, 1)
    try:
        reply = await run_in_threadpool(row.handler, call)
        if reply.by is not None and reply.status == 200 and reply.etag is not None:
            ctx.hub.made_by(game, int(reply.etag), reply.by)
    finally:
        ctx.hub.writing(game, -1)
        ctx.notify()  # also after a failure: a change held back by this one is looked at now
    return reply


async def _start(ctx: Context, row: Row, call: Call, client: str) -> Reply:
    """A new game; from the network, bounded per client and in all (starts.py)."""
    if ctx.tokens:
        ctx.starts.admit(client)
    try:
        reply = await run_in_threadpool(row.handler, call)
    except BaseException:
        if ctx.tokens:
            ctx.starts.take_back(client)
        raise
    ctx.notify()
    return reply
