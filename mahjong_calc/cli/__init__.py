"""The `mjcalc` CLI: the root app and its command table (app.py), the shared options
(options.py), one module per command group (score.py, tables.py, game.py, live.py, serve.py).

`main` is the entry point. Start-up (importing Typer, Pydantic and the library, reading the
command line) allocates much and frees little, so the collector's passes over it find nothing
to free: it runs with the collector off, and a command that may run long turns it on as it
begins (`app.Command.invoke`; one that answers for one hand ends first). What is left at exit
is frozen (`gc.freeze`), so the interpreter's last pass skips it too.
"""

from __future__ import annotations

import gc


def main(argv: list[str] | None = None) -> None:
    """`mjcalc`: run a command line (cli/app.py `main`)."""
    gc.disable()
    try:
        from .app import main as run

        run(argv)
    finally:
        gc.freeze()
