"""`mjcalc site build DIR`: the page as a static folder that scores on a phone alone, offline (web/site.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from .app import Command, Group, emit, emit_json, errors_to_exit
from .options import TABLE_OR_JSON, FormatOption, Lang, LangOption, chosen_format

site_app = typer.Typer(name="site", invoke_without_command=True, add_completion=False, pretty_exceptions_enable=False, cls=Group,
                       rich_markup_mode=None)


@site_app.callback()
def _site(ctx: typer.Context, lang: LangOption = Lang.zh) -> None:
    """The page without a server: a static folder for any web host, that works offline on a phone.

    Example: mjcalc site build site/
    """
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())


@site_app.command("build", cls=Command)
def build(
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="A new or empty folder to write the site into.", show_default=False)],
    pyodide: Annotated[Path | None, typer.Option(
        "--pyodide", metavar="PATH", show_default=False,
        help="A local copy of the npm package pyodide (its `npm pack` tarball or unpacked folder) instead of fetching it with npm.")] = None,
    out_format: FormatOption = None,
    json_out: Annotated[bool, typer.Option("--json", "-j", help="Print what was written as JSON (the same as --format json).")] = False,
    lang: LangOption = Lang.zh,
) -> None:
    """Write the static site: the page, a pinned Pyodide, mjcalc's Python and its rulesets, a manifest and a service worker.

    Serve the folder from any static host (`python3 -m http.server -d DIR`); after the first
    visit the page opens and scores offline, and installs to the home screen.

    Example: mjcalc site build site/ --pyodide pyodide-314.0.8.tgz
    """
    from ..web.site import build as build_site

    json_out = chosen_format(out_format, TABLE_OR_JSON, "table", json=json_out) == "json"
    with errors_to_exit(json_out):
        built = build_site(folder, pyodide)
    if json_out:
        emit_json(json.dumps({"dir": str(built.root), "build": built.digest, "bytes": built.total, "files": built.files}, ensure_ascii=False))
    else:
        emit(f"{built.root}: {len(built.files)} files, {built.total / 1e6:.1f} MB (build {built.digest}); "
             f"serve it with: python3 -m http.server -d {built.root}")
