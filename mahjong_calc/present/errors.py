"""Errors as a user reads them: one line for a terminal, a JSON object, with where in the text
it is. Apart from render.py so that what needs only this (the batch engine) imports no Rich."""

from __future__ import annotations

import json
import re
from typing import Any

from ..core.errors import MjcalcError, NotAWin
from ..core.words import N_, Text

MAX_MESSAGE = 400  # characters of a message shown; messages bound what they echo, this is the backstop


def clean(text: str, limit: int = MAX_MESSAGE) -> str:
    """`text` safe for one terminal line and for UTF-8, at most about `limit` characters:
    control, format and surrogate characters (newlines, ESC, BEL, bidi overrides,
    undecodable argv bytes) are written as Python escapes, e.g. `\\x1b`."""
    if len(text) > limit:
        text = text[:limit] + "…"
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


# controls a terminal may act on: C0 but tab, line feed and carriage return (CSV quotes those), DEL, C1
_UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _escape(found: re.Match[str]) -> str:
    return f"\\u{ord(found[0]):04x}"


def inert(text: str) -> str:
    """`text` with each control character a terminal acts on (ESC, BEL, DEL, the C1 controls; not
    tab, line feed, carriage return) written as its `\\uXXXX` escape: an escape sequence a file
    brings in never reaches a terminal. In JSON text the escape is JSON's own: the value is kept."""
    return text if text.isprintable() else _UNSAFE.sub(_escape, text)


def message_of(code: str, message: str | Text) -> str:
    """A message in the chosen language, as an error of `code` with it would show it."""
    return MjcalcError(code, message).message


def error_dict(err: MjcalcError) -> dict[str, Any]:
    """`{"valid": false, "reason": …}` for a hand that is not a win, `"error"` for bad input (with
    `position`, counted from 0, and `column`, from 1, where it points into the text)."""
    body = err.to_dict()
    body["message"] = clean(str(body["message"]))
    return {"valid": False, ("reason" if isinstance(err, NotAWin) else "error"): body}


def error_json(err: MjcalcError) -> str:
    return json.dumps(error_dict(err), ensure_ascii=False)


WINDOW = 80  # characters of the input shown around the error's position


def error_line(err: MjcalcError) -> str:
    """One line naming the problem and, when known, where it is: `12[x]3m`."""
    kind = N_("not a win") if isinstance(err, NotAWin) else N_("error")
    return f"mjcalc: {kind} [{err.code}]: {clean(err.message)}{error_where(err)}"


def error_where(err: MjcalcError) -> str:
    """` at column 3: 12[x]3m` when the error knows where it is in its text, else ''."""
    if err.position is None or err.source is None:
        return ""
    src, pos = err.source, err.position
    start = max(0, pos - WINDOW // 2)
    before = ("…" if start else "") + clean(src[start:pos])
    after = clean(src[pos + 1 : pos + WINDOW // 2]) + ("…" if len(src) > pos + WINDOW // 2 else "")
    return " " + N_("at column {column}: {excerpt}", column=pos + 1, excerpt=f"{before}[{clean(src[pos:pos + 1])}]{after}").render()
