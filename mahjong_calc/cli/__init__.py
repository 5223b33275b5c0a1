"""The `mjcalc` CLI: the root app and its command table (app.py), the shared options
(options.py), one module per command group (score.py, tables.py, game.py, live.py, serve.py)."""
