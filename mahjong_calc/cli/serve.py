"""`mjcalc serve`: start the page and the API with uvicorn (the optional `web` extra)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..core.words import N_, language
from ..web import is_loopback, join_line, start_url
from .app import errors_to_exit, fail
from .live import DbOption
from .options import Lang, LangOption

if TYPE_CHECKING:
    from ..live.store import GameInfo

INSTALL_HINT = "mjcalc serve needs the web extra: pip install 'mjcalc[web]' (from a checkout: pip install '.[web]')"


def _lan_address() -> str:
    """This machine's address on the local network (no packet is sent)."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
            return str(s.getsockname()[0])
    except OSError:
        return socket.gethostname()


def serve(
    host: Annotated[str, typer.Option("--host", metavar="ADDRESS", help=(
        "Address to listen on; 0.0.0.0 lets phones on the same network join (then each game's link carries its access token)."))] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, metavar="PORT", help="Port to listen on.")] = 8315,
    db: DbOption = None,
    lang: LangOption = Lang.zh,
    max_db_mb: Annotated[int, typer.Option("--max-db-mb", min=1, max=1_000_000, metavar="MB", help=(
        "Past this size the games database takes no more writes (db_full); reading goes on."))] = 256,
    max_hands: Annotated[int, typer.Option("--max-hands", min=1, max=100_000, metavar="N", help=(
        "The most hands one game holds (too_many_hands)."))] = 1000,
    max_events: Annotated[int, typer.Option("--max-events", min=1, max=1_000_000, metavar="N", help=(
        "The most events one game keeps: hands entered, changed, removed, undone, redone (too_many_events)."))] = 10_000,
    proxy_headers: Annotated[bool, typer.Option("--proxy-headers", help=(
        "Behind a reverse proxy on this machine: take each client's address from X-Forwarded-For (never without this flag)."))] = False,
) -> None:
    """Serve the table companion page and its JSON API (needs the `web` extra).

    On loopback (the default) nothing else can reach it. With --host 0.0.0.0 it prints,
    for each recent game and each game begun while it runs, a link with the game's
    access token, and a link that begins a game on a phone; a phone without a token
    may only begin a game.

    Example: mjcalc serve --port 8315
    """
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        fail("missing_extra", N_(INSTALL_HINT), 2, False)
        return
    import socket

    from ..live import Store
    from ..web.app import create_app

    tokens = not is_loopback(host)
    try:  # say so in one line now, rather than in uvicorn's log after start-up
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host.strip("[]"), port))
    except OSError as exc:
        fail("cannot_listen", N_("cannot listen on {host} port {port}: {reason}", host=host, port=port, reason=exc.strerror or exc), 2, False)
    with errors_to_exit(False), Store(db) as store:
        games = store.games()[:8]
        where = store.path
    shown = host if not tokens or host not in ("0.0.0.0", "::") else _lan_address()
    if ":" in shown:
        shown = f"[{shown}]"
    base = f"http://{shown}:{port}/"
    said = language()  # --lang, else MJCALC_LANG or the locale (LANG=zh_CN.UTF-8: Chinese), for every line serve prints
    typer.echo(N_("mjcalc: serving {db} on {url}  (Ctrl-C stops)", db=where, url=base).render(said))
    if tokens:
        for g in games:
            typer.echo(join_line(base, g.id, g.header.get("players"), g.token, tokens, said))
        typer.echo(N_("mjcalc: begin a game on any phone of this network: {url}  (each game's link then shows here)",
                      url=start_url(base)).render(said))
    sys.stdout.flush()  # the links must show before uvicorn takes over, also through a pipe
    from ..web.announcer import Announcer
    from ..web.server import run

    announcer = Announcer(sys.stdout.fileno() if sys.stdout is not None else 1)  # in a thread of its own: a stdout nobody reads never stops the server

    def announce(info: GameInfo) -> None:  # a game begun while serving, here or by `mjcalc game new`
        announcer.say(join_line(base, info.id, info.header.get("players"), info.token, tokens, said))

    from ..live.limits import StoreLimits

    limits = StoreLimits(hands=max_hands, events=max_events, db_bytes=max_db_mb * 1_000_000)
    run(create_app(Path(where), tokens=tokens, public=base, announce=announce, limits=limits, proxy_headers=proxy_headers), host, port)


__all__ = ["INSTALL_HINT", "serve"]
