"""What every route of the API shares: its error, JSON answers, the request's body and version,
and the numbers in a path; a large answer is sent in pieces, at the pace its client reads."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from ..core.errors import MjcalcError
from ..core.words import N_, Text
from . import api

MAX_BODY = 1 << 20  # 1 MB: a hand is a few hundred bytes
PIECE = 1 << 16  # an answer larger than this goes out in pieces of this size, each when the client has taken the last
JSON = "application/json; charset=utf-8"


class ApiError(MjcalcError):
    """A refusal of the API: its code, message (a msgid of the catalogue, with its named
    parameters, rendered in the request's language), HTTP status and any headers (`Retry-After`)."""

    def __init__(self, code: str, message: str | Text, status: int | None = None, headers: Mapping[str, str] | None = None,
                 **params: object) -> None:
        super().__init__(code, message, None, None, **params)
        self.status = status if status is not None else api.STATUS.get(code, 400)
        self.headers = dict(headers or {})


def json_response(status: int, body: str | bytes, headers: Mapping[str, str] | None = None) -> Response:
    """A JSON answer; one larger than PIECE is streamed, so that a client that does not read
    holds a piece of it in the server's memory, not all of it."""
    data = body.encode("utf-8") if isinstance(body, str) else body
    if len(data) <= PIECE:
        return Response(data, status_code=status, media_type=JSON, headers=dict(headers or {}))

    async def pieces() -> AsyncIterator[bytes]:
        view = memoryview(data)
        for start in range(0, len(data), PIECE):
            yield bytes(view[start:start + PIECE])

    return StreamingResponse(pieces(), status_code=status, media_type=JSON,
                             headers={**(headers or {}), "content-length": str(len(data))})


def error_response(code: str, message: str | Text, status: int | None = None, headers: Mapping[str, str] | None = None) -> Response:
    return json_response(status if status is not None else api.STATUS.get(code, 400), api.error_body(code, message), headers)


def client_of(request: Request) -> str:
    """Who is asking, for the limits per client: the peer's address."""
    return request.client.host if request.client is not None else "?"


async def read_body(request: Request) -> Any:
    """The request's JSON body, at most MAX_BODY bytes, sent as `application/json`."""
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media != "application/json":
        given = N_("not {media!r}", media=media[:60]) if media else N_("none was given")
        raise ApiError("bad_content_type", "the body must be sent with `Content-Type: application/json` ({given})", 415, given=given)
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise ApiError("body_too_large", "the body must be at most {limit} bytes", limit=MAX_BODY)
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise ApiError("body_too_large", "the body must be at most {limit} bytes", limit=MAX_BODY)
    try:
        return json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        raise ApiError("bad_json", "the body must be one JSON value (UTF-8)") from None


async def optional_body(request: Request) -> Any:
    """The JSON body of a request that may have none (an undo, a delete): None when it has none."""
    if request.headers.get("content-length", "0") == "0" and "transfer-encoding" not in request.headers:
        return None
    return await read_body(request)


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
        raise ApiError("bad_field", "{where} must be the game's version, a whole number (the `ETag` of its state), not {given!r}",
                       where=where, given=str(given)[:40])
    return given


def hand_no(value: str) -> int:
    if value.isascii() and value.isdigit() and len(value) < 10:
        return int(value)
    raise ApiError("unknown_hand", "a hand is named by its number (1, 2, ...), not {value!r}", value=value[:40])


def path_game_number(value: str) -> int:
    """A game's number in a URL path, or unknown_game (404)."""
    from ..live.model import parse_game_number

    number = parse_game_number(value)
    if number is None:
        raise ApiError("unknown_game", "a game is named by its number, not {value!r}", value=value[:40])
    return number
