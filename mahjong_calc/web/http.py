"""What every Starlette route of the API shares: its error, JSON answers and the request's body;
a large answer is sent in pieces, at the pace its client reads."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from ..core.words import N_, Text
from . import api
from .api import ApiError

MAX_BODY = 1 << 20  # 1 MB: a hand is a few hundred bytes
PIECE = 1 << 16  # an answer larger than this goes out in pieces of this size, each when the client has taken the last
JSON = "application/json; charset=utf-8"


def json_response(status: int, body: str | bytes, headers: Mapping[str, str] | None = None, media: str = JSON) -> Response:
    """A JSON answer (or another text, of `media`); one larger than PIECE is streamed, so that a client
    that does not read holds a piece of it in the server's memory, not all of it."""
    data = body.encode("utf-8") if isinstance(body, str) else body
    if len(data) <= PIECE:
        return Response(data, status_code=status, media_type=media, headers=dict(headers or {}))

    async def pieces() -> AsyncIterator[bytes]:
        view = memoryview(data)
        for start in range(0, len(data), PIECE):
            yield bytes(view[start:start + PIECE])

    return StreamingResponse(pieces(), status_code=status, media_type=media,
                             headers={**(headers or {}), "content-length": str(len(data))})


def error_response(code: str, message: str | Text, status: int | None = None, headers: Mapping[str, str] | None = None) -> Response:
    return json_response(status if status is not None else api.STATUS.get(code, 400), api.error_body(code, message), headers)


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


__all__ = ["JSON", "MAX_BODY", "PIECE", "ApiError", "error_response", "json_response", "optional_body", "read_body"]
