"""The routes that score without a game: `/api/score`, `/api/waits`, `/api/advise`, and the
tables the page reads (`/api/variants`, `/api/messages`, `/api/words`). Scoring runs in the costly pool."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from . import api
from .http import client_of, json_response, read_body

if TYPE_CHECKING:
    from .context import Context


async def score(request: Request, ctx: Context) -> Response:
    body = await read_body(request)
    return json_response(*await ctx.calc.run(client_of(request), api.answer_score, body))


async def waits(request: Request, ctx: Context) -> Response:
    body = await read_body(request)
    return json_response(*await ctx.calc.run(client_of(request), api.answer_waits, body))


async def advise(request: Request, ctx: Context) -> Response:
    body = await read_body(request)
    return json_response(*await ctx.calc.run(client_of(request), api.answer_advise, body))


async def messages(request: Request, ctx: Context) -> Response:
    """`GET /api/messages`: every error code's message, `{code: {"zh", "en"}}` (core/errors.MESSAGES)."""
    from ..core.errors import MESSAGES

    return json_response(200, json.dumps({code: {"zh": zh, "en": en} for code, (zh, en) in MESSAGES.items()}, ensure_ascii=False))


async def words(request: Request, ctx: Context) -> Response:
    """`GET /api/words`: every word of the page in Chinese and English (web/page_words.py)."""
    from .page_words import words_json

    return json_response(200, words_json())


async def variants(request: Request, ctx: Context) -> Response:
    return json_response(*await run_in_threadpool(api.answer_variants))
