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
