"""Who may call the API, in one place: the Host on loopback, the Origin of a write, the token.

On loopback only a request that names a loopback host and this server's port is answered (a
page elsewhere could otherwise reach it through DNS rebinding). A request that changes
something (`POST`, `PUT`, `PATCH`, `DELETE`) must come from the server's own page: its
`Origin` (or, without one, its `Referer`) must be the server's own origin; a request with
neither header (curl, scripts) is not a page acting for someone, and is let through. With
tokens on (a server reachable from the network) a game's routes need that game's token, the
others any game's token (`?token=` or the `X-Mjcalc-Token` header), except the few a phone
needs to begin a game, which read no game (`token_free`: the variants, the messages, the
list of games, which shows a phone without a token none, and `POST /api/games` itself); those
answer only a request that names the server by its address or a local name (no page elsewhere
reaches them through DNS rebinding).
"""

from __future__ import annotations

import ipaddress
import re
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import Response

from ..core.errors import MjcalcError
from ..core.words import N_, language_of_header, speaking
from . import api, is_loopback
from .api import ApiError
from .http import error_response, json_response
from .table import game_number

if TYPE_CHECKING:
    from .context import Context

TOKEN_HEADER = "x-mjcalc-token"
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DEFAULT_PORT = {"http": 80, "https": 443}

Route = Callable[[Request, "Context"], Awaitable[Response]]
Handler = Callable[[Request], Awaitable[Response]]


def token_of(request: Request) -> str | None:
    return request.headers.get(TOKEN_HEADER) or request.query_params.get("token")


def opens(token: str | None, given: str | None) -> bool:
    """Whether the token given opens a game whose stored token is `token` (in constant time)."""
    return bool(token and given) and secrets.compare_digest(str(token).encode(), str(given).encode())


def check_token(ctx: Context, request: Request, game: int | None) -> None:
    """With tokens on: a game's routes need that game's token, the others any game's token."""
    if not ctx.tokens:
        return
    given = token_of(request)
    if not given:
        raise ApiError("missing_token", "this server is open to the network: open the link with `?token=…` that `mjcalc serve` printed")
    with ctx.store() as s:
        known = [t for g, t in s.tokens().items() if game is None or g == game]
    if not any(opens(t, given) for t in known):
        raise ApiError("bad_token", "the access token does not open this game")


def check_host(ctx: Context, request: Request) -> None:
    """On loopback, only a page that names a loopback host (and this server's port) may call."""
    if ctx.tokens:
        return
    host = request.headers.get("host", "")
    parsed = _origin(request.url.scheme, host)
    server = request.scope.get("server")
    port = server[1] if server else None  # the port this server listens on
    if parsed is None or not is_loopback(parsed[1]) or (port is not None and parsed[2] != port):
        raise ApiError("bad_host", "this server answers on loopback only, not for host {host!r}", 403, host=host[:60])


def check_local_name(request: Request) -> None:
    """With tokens on, a request that needs none (beginning a game) must name the server as the
    local network does: an address, or a name without a dot or ending in `.local` (mDNS). A web
    page elsewhere could otherwise rebind its own domain's name to this server and begin games."""
    parsed = parse_host(request.headers.get("host", ""))
    name = parsed[0] if parsed is not None else ""
    try:
        ipaddress.ip_address(name.strip("[]"))
        return
    except ValueError:
        pass
    if name and ("." not in name or name.endswith(".local")):
        return
    host = request.headers.get("host", "")[:60]
    raise ApiError("bad_host", str(N_("without a token this server answers only for its address on the network, not for host {host!r}",
                                      host=host)), 403)


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
        raise ApiError("bad_origin", "a change must come from this server's own page ({own}), not from {origin!r}", 403,
                       own=f"{request.url.scheme}://{request.headers.get('host', '')[:60]}", origin=origin[:80])


def endpoint(ctx: Context, route: Route, game_route: bool = False, token_free: bool = False) -> Handler:
    """An API route behind the checks, its errors answered as the CLI's error objects, its messages
    in the language the request asks for (`Accept-Language`: zh or en; else the server's); a
    `token_free` route reads no game, and answers without a token (see the module's docstring)."""
    async def handle(request: Request) -> Response:
        with speaking(language_of_header(request.headers.get("accept-language"))):
            return await answer(request)

    async def answer(request: Request) -> Response:
        try:
            game = game_number(request.path_params["game"]) if game_route else None
            check_host(ctx, request)
            check_origin(request)
            if not token_free:
                check_token(ctx, request, game)
            elif ctx.tokens:
                check_local_name(request)
            return await route(request, ctx)
        except ApiError as err:
            return error_response(err.code, err.message, err.status, err.headers)
        except MjcalcError as err:
            return json_response(*api.error_answer(err))
        except Exception as exc:
            return error_response("internal_error", N_("internal error ({kind}); please report this request", kind=type(exc).__name__))
    return handle


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
