"""`mjcalc serve`: the table companion page and its JSON API.

Needs the optional `web` extra (Starlette and uvicorn): `pip install 'mjcalc[web]'`.
`app.create_app(db)` builds the ASGI app; `cli/serve.py` is the CLI command. Importing
this package imports neither Starlette nor uvicorn.
"""

from __future__ import annotations


def is_loopback(host: str) -> bool:
    """Whether `host` names this machine only (no token needed): the app checks Host with it, the
    command decides with it whether to print tokens; here, so both use it without importing each other."""
    if host == "localhost":
        return True
    import ipaddress  # here, not at every mjcalc start-up

    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def join_url(base: str, game: int, token: str | None) -> str:
    """The link that opens a game: `http://192.168.1.20:8315/?game=1&token=…` (no token on loopback)."""
    from urllib.parse import urlencode

    query = {"game": str(game), **({"token": token} if token else {})}
    return f"{base.rstrip('/')}/?{urlencode(query)}"


def start_url(base: str) -> str:
    """The link that opens the page ready to begin a game: `http://192.168.1.20:8315/?new=1`."""
    return f"{base.rstrip('/')}/?new=1"


def join_line(base: str, game: int, players: object, token: str | None, tokens: bool, lang: str | None = None) -> str:
    """`serve`'s line for one game, in `lang`: its players and its link (with tokens on, the token in it)."""
    from ..core.words import N_

    names = ",".join(map(str, players)) if isinstance(players, list) else ""
    if tokens and token is None:
        return N_("  game {game}: no valid access token in the database; it cannot be opened from the network", game=game).render(lang)
    return N_("  game {game} ({names}): {url}", game=game, names=names, url=join_url(base, game, token if tokens else None)).render(lang)
