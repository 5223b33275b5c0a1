"""The pages: `/` and `/season` of `mjcalc serve`, and the static site's index.html.

static/index.html and static/season.html hold each page's body; the head they share (charset,
viewport, title, icon, stylesheet) is written once here, so the pages cannot drift apart.
"""

from __future__ import annotations

from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"

_HEAD = """<!doctype html>
<html lang="zh">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mjcalc</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{static}app.css">
{more}</head>
"""


def page(name: str, static: str, more: str = "") -> str:
    """The page `name` (static/<name>.html, its body) under the shared head; `static`: where the page
    finds static/ (`static/` beside it, or `/static/`); `more`: lines the head carries besides."""
    return _HEAD.format(static=static, more=more) + (STATIC / f"{name}.html").read_text(encoding="utf-8")
