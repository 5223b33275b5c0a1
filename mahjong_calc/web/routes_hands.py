"""The routes that change a game: add, edit and delete a hand, undo, redo. Each is made against
the version the request names (409 `stale_version` with the game as it stands, otherwise) and
answered with the new state. They run on threads of their own, never behind the costly pool."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from ..core.errors import MjcalcError
from ..core.words import N_
from .api import json_kind
from .http import ApiError, expected_version, hand_no, json_response, optional_body, path_game_number, read_body
from .routes_games import state_body, state_response

if TYPE_CHECKING:
    from ..live.model import Change
    from ..live.store import Store
    from .context import Context

Act = Callable[["Store", int | None], "Change"]
PLAYER_HEADER = "x-mjcalc-player"


def _stale(s: Store, game: str, err: MjcalcError) -> Response:
    """409 `stale_version`, with the game as it now stands (`state`) and its `version`."""
    from ..present.errors import clean

    report, version = s.snapshot(game)
    state = state_body(report).decode("utf-8")
    body = (f'{{"valid": false, "error": {json.dumps({"code": err.code, "message": clean(err.message)}, ensure_ascii=False)}, '
            f'"version": {version}, "state": {state}}}')
    return json_response(409, body, {"etag": f'"{version}"'})


def player_of(request: Request) -> str | None:
    """Who made a change, as the phone says (`X-Mjcalc-Player`, the name percent-encoded in UTF-8)."""
    from urllib.parse import unquote

    given = request.headers.get(PLAYER_HEADER)
    if not given or len(given) > 400:
        return None
    name = unquote(given, errors="strict") if given.isascii() else None
    return name if name and len(name) <= 40 else None


async def _changed(request: Request, ctx: Context, act: Act, expect: int | None) -> Response:
    """A change to a game: made against the version the request names, answered with the new
    state. The player the phone names, if one of the game's, goes with the change's event."""
    def run() -> Response:
        with ctx.store() as s:
            try:
                change = act(s, expect)
            except MjcalcError as err:
                if err.code == "stale_version":
                    return _stale(s, request.path_params["game"], err)
                raise
        if by in change.report.game.players:
            made.append(change.version)
        return state_response(state_body(change.report), change.version)

    try:
        by = player_of(request)
    except UnicodeDecodeError:
        by = None
    made: list[int] = []
    game = path_game_number(request.path_params["game"])
    ctx.hub.writing(game, 1)  # its streams hear of the change when it is answered, with who made it
    try:
        answer = await run_in_threadpool(run)
        if made and by is not None:
            ctx.hub.made_by(game, made[0], by)
    finally:
        ctx.hub.writing(game, -1)
        ctx.notify()  # also after a failure: a change held back by this one is looked at now
    return answer


async def _hand_body(request: Request) -> tuple[dict[str, Any], int | None]:
    body = await read_body(request)
    if not isinstance(body, dict):
        raise ApiError("bad_record", "{what} must be a JSON object, not {name}", what=N_("a hand"), name=json_kind(body))
    return body, expected_version(request, body)


async def add(request: Request, ctx: Context) -> Response:
    body, expect = await _hand_body(request)
    game = request.path_params["game"]
    return await _changed(request, ctx, lambda s, v: s.add(game, body, expect=v), expect)


async def edit(request: Request, ctx: Context) -> Response:
    no = hand_no(request.path_params["n"])
    body, expect = await _hand_body(request)
    game = request.path_params["game"]
    return await _changed(request, ctx, lambda s, v: s.edit(game, no, body, expect=v), expect)


async def delete(request: Request, ctx: Context) -> Response:
    no = hand_no(request.path_params["n"])
    expect = expected_version(request, await optional_body(request))
    game = request.path_params["game"]
    return await _changed(request, ctx, lambda s, v: s.delete(game, no, expect=v), expect)


async def undo(request: Request, ctx: Context) -> Response:
    expect = expected_version(request, await optional_body(request))
    game = request.path_params["game"]
    return await _changed(request, ctx, lambda s, v: s.take_back(game, expect=v), expect)


async def redo(request: Request, ctx: Context) -> Response:
    expect = expected_version(request, await optional_body(request))
    game = request.path_params["game"]
    return await _changed(request, ctx, lambda s, v: s.redo(game, expect=v), expect)
