"""What every table of the terminal shares: the console, the columns that never cut a word, and
the words of one language or, with no language chosen, the Chinese with the English beside it.

With no language chosen (no --lang, MJCALC_LANG or Chinese locale) the tables are as they were
before there was a choice: Chinese headers with an English gloss where wide. With a language
chosen, a screen is in that language alone, the program's own tiles as players say them in
Chinese (core/tiles.tiles_said); the tiles the user typed stay as typed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import cache
from typing import IO, Any

from ..core.hand import SEAT_ZH
from ..core.tiles import parse_tiles, tile_name, tiles_said
from ..core.words import Text, language

SEAT_NAMES = {en: (zh, en) for zh, en in SEAT_ZH.items()}  # seat -> (中文, English)
NARROW = 60  # below this many columns the table shows one language only


def bilingual() -> bool:
    """No language chosen: Chinese tables carry their English gloss, as they always did."""
    return language() is None


def said(notation: str, lang: str) -> str:
    """The program's own tiles (a reading, a wait): as players say them on a chosen Chinese screen."""
    return tiles_said(notation) if lang == "zh" and not bilingual() else notation


def concealed(lang: str) -> str:
    """The mark of a declared concealed kong after its tiles."""
    return " 暗杠" if lang == "zh" and not bilingual() else " concealed"


def names(notation: str, lang: str) -> str:
    return " ".join(tile_name(t, lang) for t in parse_tiles(notation))


class Trimmed:
    """A text stream, piped or a file, that gets each line without the spaces a table pads it with
    at its end (Rich pads every line to the console's width)."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.pending = ""  # the start of a line not ended yet

    def write(self, text: str) -> int:
        head, sep, self.pending = (self.pending + text).rpartition("\n")
        if sep:
            self.out.write("\n".join(line.rstrip(" ") for line in head.split("\n")) + "\n")
        return len(text)

    def flush(self) -> None:
        if self.pending:  # a line that ends later keeps its spaces: only a line's end is trimmed
            self.out.write(self.pending)
            self.pending = ""
        self.out.flush()

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return self.out.fileno()

    @property
    def encoding(self) -> str:
        return str(getattr(self.out, "encoding", "utf-8"))


def console(file: IO[str] | None, width: int | None, **kwargs: Any) -> Any:
    """Rich's console on `file` (default stdout); not a terminal, its lines carry no trailing spaces."""
    import sys

    from rich.console import Console

    out: Any = sys.stdout if file is None else file
    if out is not None and not out.isatty():
        out = Trimmed(out)
    return Console(file=out, width=width, **{"markup": False, **kwargs})  # tiles like [555p] and `12[x]3m` are text, not markup


def table(console: Any, **kwargs: Any) -> Any:
    from rich import box
    from rich.table import Table

    narrow = console.width < NARROW  # no outer frame: four more columns for words
    return Table(box=box.SIMPLE_HEAD if console.is_terminal else box.ASCII2, padding=(0, 1), show_edge=not narrow, **kwargs)


def facts(title: str) -> Any:
    """The two-column block above a table: hand, melds, winning tile, reading."""
    from rich.table import Table

    block = Table(box=None, show_header=False, title=title, title_justify="left", padding=(0, 1))
    block.add_column(style="bold", no_wrap=True)
    block.add_column(overflow="fold")
    return block


def fold(table: Any, header: str, justify: str = "left", ratio: int | None = None) -> None:
    """A column that wraps and, for a word longer than the column, folds it: never `…`."""
    table.add_column(header, justify=justify, overflow="fold", ratio=ratio)


def whole_words(table: Any, width: int, unbroken: tuple[int, ...] = ()) -> Any:
    """Fix the column widths so the table fits `width` and wrapping splits no word.

    Each column gets its longest word; what room is left goes to the columns whose
    cells are longer than that, in proportion. Only when the longest words cannot
    all stand side by side does the widest column give way (and fold a word); the
    columns `unbroken` (by index: a key that must be typed as shown) give way last.
    """
    from rich.cells import cell_len

    mins: list[int] = []
    natural: list[int] = []
    for column in table.columns:
        texts = [str(column.header)] + [str(cell) for cell in column.cells]
        mins.append(max((cell_len(word) for text in texts for word in text.split()), default=1))
        natural.append(max((cell_len(text) for text in texts), default=1))
    # each column is padded by one on both sides, with a rule between columns (and at the edges if shown)
    room = width - 2 * len(mins) - (len(mins) - 1) - (2 if table.show_edge else 0)
    if sum(natural) <= room:
        return table  # everything fits on one line per cell
    while sum(mins) > room and max(mins) > 1:
        others = [m if i not in unbroken else 0 for i, m in enumerate(mins)]
        shrink = others if max(others) > 1 else mins
        mins[shrink.index(max(shrink))] -= 1
    widths = list(mins)
    spare = room - sum(widths)
    wants = [max(n - m, 0) for n, m in zip(natural, mins)]
    while spare > 0 and any(w > 0 for w in wants):
        i = wants.index(max(wants))
        widths[i] += 1
        wants[i] -= 1
        spare -= 1
    for column, fixed in zip(table.columns, widths):
        column.width = fixed
    return table


def cells(text: str) -> int:
    """Terminal columns of `text`: two for a wide (CJK) character."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


_WIDE = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f"


@cache
def _pieces() -> re.Pattern[str]:
    """A piece a line may not break: tiles said (一二三万, 东南, 五五五条@李), a Chinese character with
    the punctuation after it, a word of other letters; or the spaces between. Compiled when first
    wrapped (its classes of wide characters take a while: a table's console never needs it)."""
    return re.compile(rf"(?:[一二三四五六七八九]+[万筒条]|[东南西北白发中]+)(?:@[^\s，。、；]+)?[，,;；]?|@[^\s,，。、;；)]+[,;)]*"
                      rf"|[{_WIDE}][，。、；：！？）」』》,.;:!?)]*|[^\s{_WIDE}]+|\s+")


def wrap(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` cells: broken at spaces, or between two Chinese characters
    (a Chinese punctuation mark stays with the character before it); a longer word is cut."""
    lines: list[str] = []
    line = ""
    for piece in _pieces().findall(text):
        if piece.isspace():
            if line:
                line += " "
            continue
        while cells(piece) > width:  # a word wider than the line: cut, as Click does
            if line.strip():
                lines.append(line.rstrip())
                line = ""
            cut = 1
            while cells(piece[:cut + 1]) <= width:
                cut += 1
            lines.append(piece[:cut])
            piece = piece[cut:]
        if cells(line) + cells(piece) > width and line.strip():
            lines.append(line.rstrip())
            line = ""
        line += piece
    if line.strip():
        lines.append(line.rstrip())
    return lines or [""]


def asked_width() -> int | None:
    """The width lines of text must fit: a terminal's, or COLUMNS; None for a pipe or a file
    (a line each, whatever its length, for the programs that read it)."""
    import os
    import shutil
    import sys

    given = os.environ.get("COLUMNS", "").strip()
    if given.isdigit() and int(given) > 0:
        return int(given)
    if sys.stdout is not None and sys.stdout.isatty():
        return shutil.get_terminal_size().columns
    return None


def hanging(head: str, rest: str, width: int | None, indent: int = 6) -> str:
    """`head  rest` on one line where it fits `width` (None: always); else `head`, then `rest`
    wrapped under it, `indent` columns in."""
    line = f"{head}  {rest}" if rest else head
    if width is None or cells(line) <= width:
        return line
    return "\n".join([head, *(" " * indent + part for part in wrap(rest, max(width - indent, 10)))])


def variant_word(variant: str, key: str, lang: str, fallback: str) -> str:
    """A shipped variant's own word for `key` in `lang` (its ruleset's `labels`: `discard` is 点炮 at a
    Wuhu table, 放冲 at a Chizhou one); `fallback` for a ruleset that is not shipped or lacks it."""
    from ..core.errors import MjcalcError
    from ..rules.loader import load_ruleset, shipped_names

    if variant not in shipped_names():
        return fallback
    try:
        rs = load_ruleset(variant)
    except MjcalcError:
        return fallback
    if key not in rs.labels:
        return fallback
    zh, en = rs.label(key)
    return zh if lang == "zh" else en


def variant_name(variant: str, lang: str) -> str:
    """A shipped variant by its name on a chosen Chinese screen (芜湖麻将 315, 池州麻将), else its code."""
    if lang != "zh" or bilingual():
        return variant
    from ..core.errors import MjcalcError
    from ..rules.loader import load_ruleset, shipped_names

    if variant not in shipped_names():
        return variant
    try:
        return load_ruleset(variant).title.zh
    except MjcalcError:
        return variant


class Words(Mapping[str, dict[str, str]]):
    """A table's words, each a catalogue text: `HEAD["zh"]["item"]` is the Chinese of its `Item`.

    A word the tables use twice with two Chinese words (`Value`: 番 of an item, 合计 of the sum)
    carries its Chinese in the msgid, `Value (合计)`, and its English in locale/en.
    """

    def __init__(self, **texts: Text) -> None:
        self.texts = texts

    def __getitem__(self, lang: str) -> dict[str, str]:
        return {key: text.render(lang) for key, text in self.texts.items()}

    def __iter__(self) -> Iterator[str]:
        return iter(("zh", "en"))

    def __len__(self) -> int:
        return 2
