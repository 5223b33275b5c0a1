"""A YAML batch as lines, before the parser sees them: what a line is at the top of a list
(`line_kind`), a line's problems (a character YAML forbids, flow collections nested past the bound:
`checked`, `plain`), and lines as text for the parser (`Text`), which remembers the bad ones."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .items import Line, too_large

YAML_DEPTH = 64  # nesting of collections in one YAML record

# What YAML 1.1 does not allow in a stream (PyYAML's Reader.NON_PRINTABLE)
_NON_PRINTABLE = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
BREAK = re.compile("\r\n?|[\n\x85\u2028\u2029]")  # a line break, to YAML
_SPACE = ("", " ", "\t", "\r", "\n", "\x85", "\u2028", "\u2029")  # what may follow `-`, `---`, `...` (PyYAML)


def checked(text: str, problem: str | None) -> tuple[str, str | None]:
    """A YAML line and its problem: a character YAML forbids (replaced, so the parser goes on),
    or flow collections nested beyond YAML_DEPTH (cut, see `_flatten`). A line that is not UTF-8
    keeps that problem, its forbidden characters replaced too."""
    if problem in (None, "encoding") and _NON_PRINTABLE.search(text):
        return _NON_PRINTABLE.sub("\ufffd", text), problem or "character"
    if problem is None and text.count("[") + text.count("{") > YAML_DEPTH:
        found, flat = _flatten(text)
        return flat, found
    return text, problem


def plain(entry: Line) -> Line:
    """A blank line or a comment, with a character YAML forbids replaced and named as its problem."""
    if entry[2] is None and _NON_PRINTABLE.search(entry[1]):
        return (entry[0], _NON_PRINTABLE.sub("\ufffd", entry[1]), "character", entry[3])
    return entry


def line_kind(text: str) -> str:
    """What a line is at the top level of a YAML list: entry (`- ` at column 0), start or end
    (a document marker), blank, comment (`#` at column 0), directive, or more (anything else)."""
    first = text[:1]
    if first == "-":
        if text[1:2] in _SPACE:
            return "entry"
        if text[:3] == "---" and text[3:4] in _SPACE:
            return "start"
    elif first == "." and text[:3] == "..." and text[3:4] in _SPACE:
        return "end"
    elif first == "#":
        return "comment"
    elif first == "%":
        return "directive"
    return "blank" if not text.strip(" \t\r\n") else "more"


class Text:
    """Lines as text for PyYAML, read as it asks: a line that is not UTF-8, holds a character
    YAML forbids, or is longer than RECORD_LIMIT is replaced (so the parser goes on) and
    remembered, to make the record holding it an error."""

    def __init__(self, lines: Iterator[Line]) -> None:
        self.lines = lines
        self.bad: dict[int, str] = {}  # 0-based line -> problem
        self.buffer = ""

    def read(self, size: int = -1) -> str:
        while len(self.buffer) < max(size, 1):
            entry = next(self.lines, None)
            if entry is None:
                break
            number, text, problem, _ = entry
            text, problem = checked(text, problem)
            if problem is not None:
                self.bad[number - 1] = problem
                if problem == "size":
                    text = "\n"
            self.buffer += text
        out, self.buffer = (self.buffer[:size], self.buffer[size:]) if size >= 0 else (self.buffer, "")
        return out


def _flatten(text: str) -> tuple[str | None, str]:
    """A line whose flow collections nest more than YAML_DEPTH deep, cut at its first
    bracket (PyYAML's scanner takes time quadratic in that depth); else the line as it is."""
    depth = deepest = 0
    quote = ""
    for char in text:
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    if deepest <= YAML_DEPTH:
        return None, text
    cut = min(i for i in (text.find("["), text.find("{")) if i >= 0)
    return "nesting", text[:cut] + "~\n"


BAD_TEXT = {
    "nesting": ("bad_record", f"the record is nested more than {YAML_DEPTH} deep"),
    "encoding": ("bad_encoding", "the record is not valid UTF-8"),
    "character": ("bad_encoding", "the record holds a control character that YAML does not allow"),
}
def bad_line(problem: str) -> tuple[str, str]:
    return too_large() if problem == "size" else BAD_TEXT.get(problem, ("bad_yaml", problem))
