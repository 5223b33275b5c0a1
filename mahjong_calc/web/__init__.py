"""`mjcalc serve`: the table companion page and its JSON API (issue 14).

Needs the optional `web` extra (Starlette and uvicorn): `pip install 'mjcalc[web]'`.
`app.create_app(db)` builds the ASGI app; `command.serve` is the CLI command. Importing
this package imports neither Starlette nor uvicorn.
"""
